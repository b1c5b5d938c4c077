package gemini_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/integration/fakegemini"
	"github.com/agentsvc/agentsvc/internal/models/gemini"
)

// callsResponse is a response with two calls whose arguments are not in
// sorted key order, nested objects and lists included.
const callsResponse = `{"candidates":[{"content":{"role":"model","parts":[
	{"text":"Let me look."},
	{"functionCall":{"name":"search","args":{"query":"x","ok":true,"v":null,"opts":{"z":1,"a":[{"k2":2,"k1":1}]}}}},
	{"functionCall":{"args":{"b":1,"a":2},"name":"lookup"}}]},"finishReason":"STOP"}],
	"usageMetadata":{"totalTokenCount":3}}`

var wantKeyOrders = [][]string{{"query", "ok", "v", "opts", "z", "a", "k2", "k1"}, {"b", "a"}}

// keyOrders returns the key order of each call of resp.
func keyOrders(resp *v1.LlmResponse) [][]string {
	var out [][]string
	for _, p := range resp.GetContent().GetParts() {
		if fc := p.GetFunctionCall(); fc != nil {
			out = append(out, fc.GetKeyOrder())
		}
	}
	return out
}

func TestFunctionCallKeepsTheModelsKeyOrder(t *testing.T) {
	t.Parallel()
	for _, stream := range []bool{false, true} {
		fake, p := newFake(t, gemini.Config{})
		// Streamed: a text chunk, then the calls, then a chunk without calls.
		item := fakegemini.Reply(json.RawMessage(callsResponse))
		if stream {
			item = fakegemini.Stream(
				json.RawMessage(`{"candidates":[{"content":{"role":"model","parts":[{"text":"Hmm. "}]}}]}`),
				json.RawMessage(callsResponse),
				json.RawMessage(`{"candidates":[{"content":{"role":"model","parts":[{"text":"done"}]},"finishReason":"STOP"}]}`))
		}
		if err := fake.Enqueue(item); err != nil {
			t.Fatal(err)
		}
		out, err := collect(t.Context(), t, p, userText("look it up"), stream)
		if err != nil {
			t.Fatal(err)
		}
		final := out[len(out)-1]
		if d := cmp.Diff(wantKeyOrders, keyOrders(final)); d != "" {
			t.Errorf("stream=%v: key orders (-want +got):\n%s", stream, d)
		}
		if stream {
			if d := cmp.Diff(wantKeyOrders, keyOrders(out[1])); d != "" {
				t.Errorf("partial response with the calls: key orders (-want +got):\n%s", d)
			}
		}
	}
}

func TestFunctionCallKeyOrderLeftEmpty(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		body string
	}{
		{"repeated key", `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"f","args":{"a":1,"b":2,"a":3}}}]},"finishReason":"STOP"}]}`},
		{"no args", `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"f"}}]},"finishReason":"STOP"}]}`},
		{"sorted keys", `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"f","args":{"a":{"c":1,"d":[{"e":1,"f":2}]},"b":2}}}]},"finishReason":"STOP"}]}`},
		{"empty args", `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"f","args":{}}}]},"finishReason":"STOP"}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake, p := newFake(t, gemini.Config{})
			if err := fake.Enqueue(fakegemini.Reply(json.RawMessage(tt.body))); err != nil {
				t.Fatal(err)
			}
			out, err := collect(t.Context(), t, p, userText("x"), false)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff([][]string{nil}, keyOrders(out[0]), cmpopts.EquateEmpty()); d != "" {
				t.Errorf("key orders (-want +got):\n%s", d)
			}
		})
	}
}
