package fakegemini

import (
	"bytes"
	"io"
	"net/http"
)

// endlessText is written over and over by an endless non-streamed answer.
var endlessText = bytes.Repeat([]byte("lorem ipsum "), 4096/12)

// writeEndlessStream writes the entry's chunks (or its response) as
// server-sent events over and over until the client goes away, as a model
// that streams without end. Without alt=sse it writes an endless JSON array.
func writeEndlessStream(w http.ResponseWriter, r *http.Request, e entry) {
	chunks := e.streamChunks()
	cw := startChunks(w, r)
	for i := 0; r.Context().Err() == nil; i = (i + 1) % len(chunks) {
		if err := cw.write(chunks[i]); err != nil {
			return
		}
	}
}

// writeEndlessUnary writes a GenerateContentResponse whose one text part
// never ends, until the client goes away.
func writeEndlessUnary(w http.ResponseWriter, r *http.Request) {
	flusher, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(http.StatusOK)
	if _, err := io.WriteString(w, `{"candidates":[{"content":{"role":"model","parts":[{"text":"`); err != nil {
		return
	}
	for r.Context().Err() == nil {
		if _, err := w.Write(endlessText); err != nil {
			return
		}
		if flusher != nil {
			flusher.Flush()
		}
	}
}
