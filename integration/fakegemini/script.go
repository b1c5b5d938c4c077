package fakegemini

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Item is one scripted answer: exactly one of Response, Chunks, Error and
// Hang.
type Item struct {
	// Model selects the queue of [Server.Enqueue] or filters a [Rule]; empty
	// means any model. A "models/" prefix is ignored.
	Model string `json:"model,omitempty"`
	// Response is a whole GenerateContentResponse: a JSON object given as a
	// json.RawMessage, []byte, string, map or any JSON-encodable value. A
	// streamed request gets it as a single chunk.
	Response any `json:"response,omitempty"`
	// Chunks are the GenerateContentResponse chunks of a streamed answer. A
	// non-streamed request gets them merged into one response.
	Chunks []any `json:"chunks,omitempty"`
	// Error answers with an HTTP error instead.
	Error *APIError `json:"error,omitempty"`
	// Hang never answers: the request waits until its client goes away or
	// the server closes, as a model that hangs.
	Hang bool `json:"hang,omitempty"`
	// Forever, with Response or Chunks, never ends the answer: a streamed
	// request gets the chunks over and over, a non-streamed one a response
	// whose text never ends, until the client goes away.
	Forever bool `json:"forever,omitempty"`
	// Delay is added to the server latency before this answer.
	Delay Duration `json:"delay,omitempty"`
}

// Rule answers every request it matches, in the order rules were added,
// when no queued item is waiting. The embedded Item is the answer; its Model,
// when set, must equal the request's model.
type Rule struct {
	Item
	// Contains must be a substring of the last user text (case-sensitive);
	// empty matches any text.
	Contains string `json:"contains,omitempty"`
	// Tools, when set, must equal whether the request declares tools.
	Tools *bool `json:"tools,omitempty"`
}

// APIError is the error a scripted answer or fault returns, sent as Google's
// error JSON: {"error":{"code":..,"message":..,"status":..}}.
type APIError struct {
	// Code is the HTTP status, e.g. 429.
	Code int `json:"code"`
	// Message is the error message.
	Message string `json:"message,omitempty"`
	// Status is the google.rpc status name; empty means the canonical name
	// for Code.
	Status string `json:"status,omitempty"`
}

// Script is the body of POST /_fake/script and of the command's --script
// file: queued answers, rules and faults, all appended to what the server
// already has.
type Script struct {
	// Responses are queued in order, per model (Item.Model) or globally.
	Responses []Item `json:"responses,omitempty"`
	// Rules are appended after the existing rules.
	Rules []Rule `json:"rules,omitempty"`
	// Faults, when set, are applied as by POST /_fake/faults.
	Faults *Faults `json:"faults,omitempty"`
}

// UnmarshalJSON reads a script strictly (unknown fields are errors),
// keeping each response and chunk as written, key order included, rather
// than as a decoded map: clients that care about the order of keys (ADK
// prints function call arguments in the model's order) see the model's.
func (sc *Script) UnmarshalJSON(b []byte) error {
	var w struct {
		Responses []wireItem `json:"responses"`
		Rules     []wireRule `json:"rules"`
		Faults    *Faults    `json:"faults"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return err
	}
	*sc = Script{Faults: w.Faults}
	for _, it := range w.Responses {
		sc.Responses = append(sc.Responses, it.item())
	}
	for _, r := range w.Rules {
		sc.Rules = append(sc.Rules, Rule{Item: r.item(), Contains: r.Contains, Tools: r.Tools})
	}
	return nil
}

// wireItem is an [Item] as a script holds it, answers undecoded.
type wireItem struct {
	Model    string            `json:"model"`
	Response json.RawMessage   `json:"response"`
	Chunks   []json.RawMessage `json:"chunks"`
	Error    *APIError         `json:"error"`
	Hang     bool              `json:"hang"`
	Forever  bool              `json:"forever"`
	Delay    Duration          `json:"delay"`
}

// wireRule is a [Rule] as a script holds it.
type wireRule struct {
	wireItem
	Contains string `json:"contains"`
	Tools    *bool  `json:"tools"`
}

func (w wireItem) item() Item {
	it := Item{Model: w.Model, Error: w.Error, Hang: w.Hang, Forever: w.Forever, Delay: w.Delay}
	if raw := bytes.TrimSpace(w.Response); len(raw) > 0 && string(raw) != "null" {
		it.Response = json.RawMessage(raw)
	}
	if w.Chunks != nil {
		it.Chunks = make([]any, len(w.Chunks))
		for i, c := range w.Chunks {
			it.Chunks[i] = c
		}
	}
	return it
}

// Faults is the body of POST /_fake/faults.
type Faults struct {
	// Latency, when set, replaces the delay before every answer.
	Latency *Duration `json:"latency,omitempty"`
	// Fail, when set, makes the next Count requests fail.
	Fail *Failure `json:"fail,omitempty"`
}

// Failure makes the next Count requests answer with an HTTP error.
type Failure struct {
	// Count is the number of requests to fail; at least 1.
	Count int `json:"count"`
	APIError
}

// Duration is a time.Duration that reads JSON as a Go duration string
// ("250ms") or a number of milliseconds, and writes the string form.
type Duration time.Duration

// MarshalJSON writes d as a duration string.
func (d Duration) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Duration(d).String())
}

// UnmarshalJSON reads a duration string or a number of milliseconds.
func (d *Duration) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		v, err := time.ParseDuration(s)
		if err != nil {
			return fmt.Errorf("duration: %w", err)
		}
		*d = Duration(v)
		return nil
	}
	ms, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return fmt.Errorf("duration: %q is neither a string nor milliseconds", b)
	}
	*d = Duration(ms * float64(time.Millisecond))
	return nil
}

// entry is a validated Item with its JSON encoded once.
type entry struct {
	model    string
	response json.RawMessage
	chunks   []json.RawMessage
	fail     *APIError
	hang     bool
	forever  bool
	delay    time.Duration
}

// rule is a validated Rule.
type rule struct {
	entry
	contains string
	tools    *bool
}

var errItemShape = errors.New("exactly one of response, chunks, error and hang must be set")

// compile validates it and encodes its JSON.
func (it Item) compile() (entry, error) {
	e := entry{model: normalizeModel(it.Model), delay: time.Duration(it.Delay), hang: it.Hang, forever: it.Forever}
	set := 0
	if it.Hang {
		set++
	}
	if it.Response != nil {
		set++
		raw, err := jsonObject(it.Response)
		if err != nil {
			return entry{}, fmt.Errorf("response: %w", err)
		}
		e.response = raw
	}
	if it.Chunks != nil {
		set++
		if len(it.Chunks) == 0 {
			return entry{}, errors.New("chunks: empty")
		}
		e.chunks = make([]json.RawMessage, len(it.Chunks))
		for i, c := range it.Chunks {
			raw, err := jsonObject(c)
			if err != nil {
				return entry{}, fmt.Errorf("chunk %d: %w", i, err)
			}
			e.chunks[i] = raw
		}
	}
	if it.Error != nil {
		set++
		if it.Error.Code < 400 || it.Error.Code > 599 {
			return entry{}, fmt.Errorf("error: code %d is not an HTTP error status", it.Error.Code)
		}
		apiErr := *it.Error
		e.fail = &apiErr
	}
	if set != 1 {
		return entry{}, errItemShape
	}
	if e.forever && e.response == nil && e.chunks == nil {
		return entry{}, errors.New("forever: needs response or chunks")
	}
	if e.delay < 0 {
		return entry{}, errors.New("delay: negative")
	}
	return e, nil
}

// jsonObject encodes v and checks that it is a JSON object.
func jsonObject(v any) (json.RawMessage, error) {
	var raw []byte
	switch t := v.(type) {
	case json.RawMessage:
		raw = t
	case []byte:
		raw = t
	case string:
		raw = []byte(t)
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		raw = b
	}
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || trimmed[0] != '{' || !json.Valid(trimmed) {
		return nil, errors.New("not a JSON object")
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, trimmed); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// normalizeModel drops a "models/" prefix.
func normalizeModel(name string) string {
	return strings.TrimPrefix(name, "models/")
}
