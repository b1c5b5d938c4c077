package gemini

import (
	"bytes"
	"testing"
	"time"
)

// FuzzKeyOrder reads the argument key order of a fuzzed generateContent
// body, and splits it, written in fuzzed pieces, into server-sent events.
// Invariants: no panic; both end in time; no more events than lines, each
// the data of a "data:" line.
func FuzzKeyOrder(f *testing.F) {
	calls := `{"candidates":[{"content":{"role":"model","parts":[
	{"text":"Let me look."},
	{"functionCall":{"name":"search","args":{"query":"x","ok":true,"v":null,"opts":{"z":1,"a":[{"k2":2,"k1":1}]}}}},
	{"functionCall":{"args":{"b":1,"a":2},"name":"lookup"}}]},"finishReason":"STOP"}],
	"usageMetadata":{"totalTokenCount":3}}`
	for _, seed := range []struct {
		body  string
		piece uint8
	}{
		{calls, 7},
		{"data: " + calls + "\r\n\r\ndata: {}\n\n", 3},
		{`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"a","args":{"x":[[[[{"y":{}}]]]]}}}]}},{"content":{}}]}`, 1},
		{`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"a","args":{"x":`, 0},
		{`{"candidates":{"functionCall":1}}`, 2},
		{`[{"functionCall":{}}]`, 5},
		{"data:\ndata\n:x\n\r\n", 1},
	} {
		f.Add([]byte(seed.body), seed.piece)
	}
	f.Fuzz(func(t *testing.T, body []byte, piece uint8) {
		start := time.Now()
		_ = responseCallKeys(body)
		var tap bodyTap
		events := 0
		size := int(piece) + 1
		for rest := body; len(rest) > 0; {
			n := min(size, len(rest))
			tap.write(rest[:n])
			rest = rest[n:]
			for {
				data, ok := tap.nextEvent()
				if !ok {
					break
				}
				events++
				if !bytes.Contains(body, data) {
					t.Fatalf("event %q is not in the body", data)
				}
			}
		}
		if lines := bytes.Count(body, []byte("\n")); events > lines {
			t.Fatalf("%d events from %d lines", events, lines)
		}
		if d := time.Since(start); d > time.Second {
			t.Fatalf("reading %d bytes took %v", len(body), d)
		}
	})
}
