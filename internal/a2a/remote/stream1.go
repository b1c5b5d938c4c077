package remote

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"strings"

	"github.com/a2aproject/a2a-go/a2a"
)

// maxStreamEventBytes bounds one event of a stream: each line and the data
// lines of an event together. The whole stream is bounded by
// [MaxResponseBytes] too, as every response is.
const maxStreamEventBytes = MaxResponseBytes

// SendStreamingMessage implements [streamer] over A2A 1.0's JSON-RPC
// binding, as a2a-sdk 1.x's JsonRpcTransport streams: method
// SendStreamingMessage, answered by server-sent events whose data are
// JSON-RPC responses, each result a 1.0 StreamResponse (a task, a message,
// a status update or an artifact update), yielded as its 0.3 type. An
// answer that is not an event stream is read as one JSON-RPC response.
func (c *jsonRPC1) SendStreamingMessage(ctx context.Context, params *a2a.MessageSendParams) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		resp, err := c.post(ctx, "SendStreamingMessage", params, "text/event-stream")
		if err != nil {
			yield(nil, err)
			return
		}
		defer resp.Body.Close()
		if !strings.Contains(resp.Header.Get("Content-Type"), "text/event-stream") {
			raw, err := io.ReadAll(resp.Body)
			if err != nil {
				yield(nil, err)
				return
			}
			yield(decodeResponse(raw))
			return
		}
		for ev, err := range sseEvents(resp.Body, maxStreamEventBytes) {
			if err != nil {
				yield(nil, fmt.Errorf("SSE stream error: %w", err))
				return
			}
			if ev.name == "error" {
				yield(nil, sseError(ev.data))
				return
			}
			item, err := decodeResponse(ev.data)
			if !yield(item, err) || err != nil {
				return
			}
		}
	}
}

// sseError is the error an "error" event carries: its JSON-RPC error, or
// its data.
func sseError(data []byte) error {
	var rpcErr *rpcError
	if _, err := decodeResponse(data); errors.As(err, &rpcErr) {
		return err
	}
	return fmt.Errorf("SSE stream error: %s", data)
}

// sseEvent is one server-sent event: its name and its data.
type sseEvent struct {
	name string
	data []byte
}

// sseEvents reads server-sent events as the W3C's rules have them, as
// a2a-sdk 1.x reads them: each event's name ("message" unless an event
// field names it) and its data lines joined by newlines, yielded when a
// blank line ends it; comments, events without data and an event the
// stream's end cuts short are skipped. A line or an event past max bytes
// is an error.
func sseEvents(body io.Reader, max int) iter.Seq2[sseEvent, error] {
	return func(yield func(sseEvent, error) bool) {
		sc := bufio.NewScanner(body)
		sc.Buffer(make([]byte, 0, min(max, 64<<10)), max)
		ev, lines := sseEvent{name: "message"}, 0
		for sc.Scan() {
			line := sc.Bytes()
			if len(line) == 0 {
				if len(ev.data) > 0 && !yield(ev, nil) {
					return
				}
				ev, lines = sseEvent{name: "message"}, 0
				continue
			}
			if line[0] == ':' {
				continue
			}
			key, val, _ := bytes.Cut(line, []byte(":"))
			val = bytes.TrimPrefix(val, []byte(" "))
			switch string(key) {
			case "event":
				ev.name = string(val)
			case "data":
				if len(ev.data)+len(val)+1 > max {
					yield(sseEvent{}, errors.New("event larger than the limit"))
					return
				}
				if lines > 0 {
					ev.data = append(ev.data, '\n')
				}
				ev.data = append(ev.data, val...)
				lines++
			}
		}
		if err := sc.Err(); err != nil {
			if errors.Is(err, bufio.ErrTooLong) {
				err = errors.New("line larger than the limit")
			}
			yield(sseEvent{}, err)
		}
	}
}
