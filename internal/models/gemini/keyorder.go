package gemini

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// The SDK decodes a response into Go maps, which forget the order of keys,
// while ADK retells another agent's call with its arguments in the model's
// order (a Python dict). The order is read from the response body itself
// (see [bodyTap]) and kept in FunctionCall.key_order.

// callKeys is one function call of a response: its name, and the keys of
// its arguments in document order (nil when they cannot be told).
type callKeys struct {
	name string
	keys []string
}

// responseCallKeys returns the function calls of the first candidate of a
// generateContent response body, in order, with their argument keys. A
// body that is not such a response gives nothing.
func responseCallKeys(body []byte) []callKeys {
	if !bytes.Contains(body, []byte(`"functionCall"`)) {
		return nil
	}
	s := keyScanner{dec: json.NewDecoder(bytes.NewReader(body))}
	var calls []callKeys
	err := s.object(func(key string) error {
		if key != "candidates" {
			return s.skip()
		}
		first := true
		return s.array(func() error {
			if !first {
				return s.skip()
			}
			first = false
			return s.path([]string{"content"}, func() error {
				return s.path([]string{"parts"}, func() error {
					return s.array(func() error {
						return s.path([]string{"functionCall"}, func() error {
							c, err := s.call()
							calls = append(calls, c)
							return err
						})
					})
				})
			})
		})
	})
	if err != nil {
		return nil
	}
	return calls
}

// keyScanner walks a JSON document token by token.
type keyScanner struct {
	dec *json.Decoder
}

var errNotJSONShape = errors.New("unexpected JSON shape")

// object reads an object, calling each for every key with the decoder
// before its value, which each must consume.
func (s *keyScanner) object(each func(key string) error) error {
	if err := s.delim('{'); err != nil {
		return err
	}
	for s.dec.More() {
		t, err := s.dec.Token()
		if err != nil {
			return err
		}
		key, ok := t.(string)
		if !ok {
			return errNotJSONShape
		}
		if err := each(key); err != nil {
			return err
		}
	}
	return s.delim('}')
}

// array reads an array, calling each for every element, which each must
// consume.
func (s *keyScanner) array(each func() error) error {
	if err := s.delim('['); err != nil {
		return err
	}
	for s.dec.More() {
		if err := each(); err != nil {
			return err
		}
	}
	return s.delim(']')
}

// path reads an object, handing the value under the first of keys to then
// and skipping the others.
func (s *keyScanner) path(keys []string, then func() error) error {
	return s.object(func(key string) error {
		if key == keys[0] {
			return then()
		}
		return s.skip()
	})
}

// call reads a functionCall object.
func (s *keyScanner) call() (callKeys, error) {
	var c callKeys
	err := s.object(func(key string) error {
		switch key {
		case "name":
			t, err := s.dec.Token()
			c.name, _ = t.(string)
			return err
		case "args":
			var ok bool
			var err error
			c.keys, ok, err = s.keys(nil)
			if !ok {
				c.keys = nil
			}
			return err
		}
		return s.skip()
	})
	return c, err
}

// keys reads one value and appends the keys of every object in it, each
// followed by the keys inside its value. It reports false when an object
// repeats a key, whose place would then be ambiguous.
func (s *keyScanner) keys(dst []string) ([]string, bool, error) {
	t, err := s.dec.Token()
	if err != nil {
		return dst, false, err
	}
	d, ok := t.(json.Delim)
	if !ok {
		return dst, true, nil
	}
	unique := true
	switch d {
	case '{':
		var own []int // indexes in dst of this object's keys
		for s.dec.More() {
			t, err := s.dec.Token()
			if err != nil {
				return dst, false, err
			}
			key, _ := t.(string)
			for _, i := range own {
				unique = unique && dst[i] != key
			}
			own = append(own, len(dst))
			dst = append(dst, key)
			var u bool
			if dst, u, err = s.keys(dst); err != nil {
				return dst, false, err
			}
			unique = unique && u
		}
	case '[':
		for s.dec.More() {
			var u bool
			if dst, u, err = s.keys(dst); err != nil {
				return dst, false, err
			}
			unique = unique && u
		}
	}
	_, err = s.dec.Token() // the closing delimiter
	return dst, unique, err
}

// skip reads one value.
func (s *keyScanner) skip() error {
	depth := 0
	for {
		t, err := s.dec.Token()
		if err != nil {
			return err
		}
		if d, ok := t.(json.Delim); ok {
			if d == '{' || d == '[' {
				depth++
			} else {
				depth--
			}
		}
		if depth == 0 {
			return nil
		}
	}
}

func (s *keyScanner) delim(want json.Delim) error {
	t, err := s.dec.Token()
	if err != nil {
		return err
	}
	if d, ok := t.(json.Delim); !ok || d != want {
		return errNotJSONShape
	}
	return nil
}

// setKeyOrders gives the function calls of resp the key orders of calls,
// the calls read from its body, when both list the same calls by name.
func setKeyOrders(resp *v1.LlmResponse, calls []callKeys) {
	var fcs []*v1.FunctionCall
	for _, p := range resp.GetContent().GetParts() {
		if fc := p.GetFunctionCall(); fc != nil {
			fcs = append(fcs, fc)
		}
	}
	if len(fcs) != len(calls) {
		return
	}
	for i, fc := range fcs {
		if fc.GetName() != calls[i].name {
			return
		}
	}
	for i, fc := range fcs {
		// Sorted keys are what an empty order stands for.
		if keys := calls[i].keys; len(keys) > 1 && !slices.Equal(keys, appendSortedKeys(nil, fc.GetArgs())) {
			fc.KeyOrder = slices.Clone(keys)
		}
	}
}

// appendSortedKeys appends the keys of s and of the objects nested in it
// in the order of FunctionCall.key_order, each object's keys sorted.
func appendSortedKeys(dst []string, s *structpb.Struct) []string {
	start := len(dst)
	for k := range s.GetFields() {
		dst = append(dst, k)
	}
	own := slices.Clone(dst[start:])
	slices.Sort(own)
	dst = dst[:start]
	for _, k := range own {
		dst = append(dst, k)
		dst = appendNestedKeys(dst, s.GetFields()[k])
	}
	return dst
}

func appendNestedKeys(dst []string, v *structpb.Value) []string {
	switch k := v.GetKind().(type) {
	case *structpb.Value_StructValue:
		return appendSortedKeys(dst, k.StructValue)
	case *structpb.Value_ListValue:
		for _, e := range k.ListValue.GetValues() {
			dst = appendNestedKeys(dst, e)
		}
	}
	return dst
}

// maxTappedBody bounds the response bytes kept for reading key orders: a
// larger response, or a stream's backlog of events the SDK read but has not
// yet parsed, keeps its keys sorted.
const maxTappedBody = 8 << 20

// bodyTap keeps the response body of one model call as the SDK reads it,
// and its HTTP status. A stream's events are dropped from it once returned
// by nextEvent, so that it holds only what the SDK has read and not yet
// parsed.
type bodyTap struct {
	buf      bytes.Buffer
	overflow bool
	status   int
}

func (t *bodyTap) reset(status int) {
	t.buf.Reset()
	t.overflow, t.status = false, status
}

func (t *bodyTap) write(p []byte) {
	if t.overflow || t.buf.Len()+len(p) > maxTappedBody {
		t.overflow = true
		return
	}
	t.buf.Write(p)
}

// body returns the whole body, or nil when it was too large.
func (t *bodyTap) body() []byte {
	if t.overflow {
		return nil
	}
	return t.buf.Bytes()
}

// nextEvent returns the data of the next complete "data:" line of a
// server-sent event stream not returned before, as the SDK reads one
// response per such line; false when there is none. The data is valid
// until the body is read further.
func (t *bodyTap) nextEvent() ([]byte, bool) {
	if t.overflow {
		return nil, false
	}
	for {
		end := bytes.IndexByte(t.buf.Bytes(), '\n')
		if end < 0 {
			return nil, false
		}
		line := bytes.TrimRight(t.buf.Next(end + 1)[:end], "\r")
		if prefix, data, _ := bytes.Cut(line, []byte(":")); string(prefix) == "data" {
			return data, true
		}
	}
}

// tapReader copies what is read of a body into a tap.
type tapReader struct {
	io.ReadCloser
	tap *bodyTap
}

func (r *tapReader) Read(p []byte) (int, error) {
	n, err := r.ReadCloser.Read(p)
	r.tap.write(p[:n])
	return n, err
}

type tapKey struct{}

// withTap returns a context whose model calls keep their response body in
// the returned tap.
func withTap(ctx context.Context) (context.Context, *bodyTap) {
	t := new(bodyTap)
	return context.WithValue(ctx, tapKey{}, t), t
}

// tapTransport hands the response bodies of requests made with a tap (see
// [withTap]) to the tap as they are read; each attempt starts it over.
type tapTransport struct {
	base http.RoundTripper
}

func (t tapTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	base := t.base
	if base == nil {
		base = http.DefaultTransport
	}
	resp, err := base.RoundTrip(req)
	if tap, ok := req.Context().Value(tapKey{}).(*bodyTap); ok && err == nil && resp.Body != nil {
		tap.reset(resp.StatusCode)
		resp.Body = &tapReader{ReadCloser: resp.Body, tap: tap}
	}
	return resp, err
}

// CloseIdleConnections closes the idle connections of the base transport.
func (t tapTransport) CloseIdleConnections() {
	if c, ok := t.base.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

// tapped returns a copy of c whose transport caps and taps bodies (see
// [instrumented]); nil for nil.
func tapped(c *http.Client) *http.Client {
	if c == nil {
		return nil
	}
	cp := *c
	cp.Transport = instrumented(c.Transport)
	return &cp
}
