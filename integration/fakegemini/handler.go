package fakegemini

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"
)

// maxBodyBytes bounds a request body; Gemini's own limit is of this order.
const maxBodyBytes = 64 << 20

const (
	methodGenerate = "generateContent"
	methodStream   = "streamGenerateContent"
)

// The sources of an answer, as recorded in [Request.Answer].
const (
	answerQueue   = "queue"
	answerRule    = "rule"
	answerDefault = "default"
	answerFault   = "fault"
)

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /_fake/script", s.handleScript)
	mux.HandleFunc("POST /_fake/reset", s.handleReset)
	mux.HandleFunc("GET /_fake/requests", s.handleRequests)
	mux.HandleFunc("POST /_fake/faults", s.handleFaults)
	mux.HandleFunc("POST /_fake/clock", s.handleClock)
	s.cacheRoutes(mux)
	s.openAIRoutes(mux) // and the Gemini model routes
	return mux
}

// handleModel serves generateContent and streamGenerateContent for the
// Gemini API path (/v1beta/models/M:method) and the Vertex AI path
// (/v1beta1/projects/P/locations/L/publishers/google/models/M:method).
func (s *Server) handleModel(w http.ResponseWriter, r *http.Request) {
	model, method, ok := parseModelPath(r.URL.Path)
	if !ok || (method != methodGenerate && method != methodStream) {
		writeAPIError(w, APIError{Code: http.StatusNotFound, Message: "Method not found: " + r.URL.Path})
		return
	}
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	if err != nil {
		writeAPIError(w, APIError{Code: http.StatusBadRequest, Message: "Cannot read the request body."})
		return
	}
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		writeAPIError(w, APIError{Code: http.StatusBadRequest, Message: "Invalid JSON payload received: " + err.Error()})
		return
	}
	body, cachedTokens, cacheErr := s.withCache(model, body)
	if cacheErr == nil && body["cachedContent"] != nil {
		// Recorded as the model sees it: the cache's fields put in.
		raw, _ = json.Marshal(body)
	}
	info := inspect(body)
	header := r.Header.Clone()
	hasKey := header.Get("X-Goog-Api-Key") != "" || r.URL.Query().Get("key") != ""
	header.Del("X-Goog-Api-Key")
	header.Del("Authorization")
	rec := Request{
		Model:     model,
		Method:    method,
		Stream:    method == methodStream,
		Path:      r.URL.Path,
		Header:    header,
		HasAPIKey: hasKey,
		Time:      time.Now(),
		raw:       raw,
	}
	if cacheErr != nil {
		rec.Answer = answerFault
		s.mu.Lock()
		s.log.add(rec)
		s.mu.Unlock()
		writeAPIError(w, *cacheErr)
		return
	}
	ans, latency := s.answer(rec, info)
	if !sleep(r.Context(), latency+ans.delay) {
		return
	}
	s.logger.DebugContext(r.Context(), "fakegemini answer", "model", model, "method", method, "answer", ans.source)
	if ans.fail != nil {
		writeAPIError(w, *ans.fail)
		return
	}
	if ans.hang {
		<-r.Context().Done()
		return
	}
	if ans.response == nil && ans.chunks == nil {
		ans.entry = echo(model, info, rec.Stream)
	}
	if body["cachedContent"] != nil {
		ans.entry = ans.entry.withCachedTokens(cachedTokens)
	}
	switch {
	case rec.Stream && ans.forever:
		writeEndlessStream(w, r, ans.entry)
	case rec.Stream:
		writeStream(w, r, ans.entry)
	case ans.forever:
		writeEndlessUnary(w, r)
	default:
		writeUnary(w, ans.entry)
	}
}

// chosen is the answer picked for a request.
type chosen struct {
	entry
	source string
}

// answer records the request and picks its answer under the lock: a pending
// fault, the head of the model's queue, of the global queue, the first
// matching rule, or nothing (the caller then builds the default echo). It
// returns the server latency too.
func (s *Server) answer(rec Request, info requestInfo) (chosen, time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ans chosen
	switch {
	case len(s.failures) > 0:
		f := &s.failures[0]
		ans = chosen{entry: entry{fail: &APIError{Code: f.err.Code, Message: f.err.Message, Status: f.err.Status}}, source: answerFault}
		if f.remaining--; f.remaining <= 0 {
			s.failures = s.failures[1:]
		}
	case len(s.queues[rec.Model]) > 0:
		ans = chosen{entry: s.pop(rec.Model), source: answerQueue}
	case len(s.queues[""]) > 0:
		ans = chosen{entry: s.pop(""), source: answerQueue}
	default:
		ans.source = answerDefault
		for _, r := range s.rules {
			if r.matches(rec.Model, info) {
				ans = chosen{entry: r.entry, source: answerRule}
				break
			}
		}
	}
	rec.Answer = ans.source
	s.log.add(rec)
	return ans, s.latency
}

func (s *Server) pop(model string) entry {
	q := s.queues[model]
	e := q[0]
	q[0] = entry{}
	if len(q) == 1 {
		delete(s.queues, model)
	} else {
		s.queues[model] = q[1:]
	}
	return e
}

func (r rule) matches(model string, info requestInfo) bool {
	if r.model != "" && r.model != model {
		return false
	}
	if r.tools != nil && *r.tools != info.hasTools {
		return false
	}
	return strings.Contains(info.lastUserText, r.contains)
}

// sleep waits d unless ctx ends first; it reports whether d elapsed.
func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// parseModelPath splits ".../models/M:method" into M and method.
func parseModelPath(path string) (model, method string, ok bool) {
	i := strings.LastIndex(path, "/models/")
	if i < 0 {
		return "", "", false
	}
	rest := path[i+len("/models/"):]
	j := strings.LastIndex(rest, ":")
	if j <= 0 || strings.Contains(rest[:j], "/") {
		return "", "", false
	}
	return rest[:j], rest[j+1:], true
}

// writeUnary writes one GenerateContentResponse, merging chunks if needed.
func writeUnary(w http.ResponseWriter, e entry) {
	body := e.response
	if body == nil {
		merged, err := mergeChunks(e.chunks)
		if err != nil {
			writeAPIError(w, APIError{Code: http.StatusInternalServerError, Message: "fakegemini: cannot merge chunks: " + err.Error()})
			return
		}
		body = merged
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	_, _ = w.Write(body)
}

// writeStream writes the chunks as server-sent events (alt=sse), or as a
// JSON array as Google does without alt=sse, flushing after each chunk.
func writeStream(w http.ResponseWriter, r *http.Request, e entry) {
	cw := startChunks(w, r)
	for _, c := range e.streamChunks() {
		if r.Context().Err() != nil {
			return
		}
		if err := cw.write(c); err != nil {
			return
		}
	}
	cw.end()
}

// streamChunks is what a streamed answer of e writes: its chunks, or its
// one response.
func (e entry) streamChunks() []json.RawMessage {
	if e.chunks == nil {
		return []json.RawMessage{e.response}
	}
	return e.chunks
}

// chunkWriter writes a streamed answer's chunks: as server-sent events
// when the request asks for alt=sse, else as the elements of a JSON array,
// as Google does. It flushes after each chunk.
type chunkWriter struct {
	w       http.ResponseWriter
	flusher http.Flusher
	sse     bool
	n       int // chunks written
}

// startChunks writes the headers of a streamed answer to r.
func startChunks(w http.ResponseWriter, r *http.Request) *chunkWriter {
	flusher, _ := w.(http.Flusher)
	cw := &chunkWriter{w: w, flusher: flusher, sse: r.URL.Query().Get("alt") == "sse"}
	if cw.sse {
		w.Header().Set("Content-Type", "text/event-stream")
	} else {
		w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	}
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	return cw
}

// write writes one chunk and flushes it.
func (cw *chunkWriter) write(chunk json.RawMessage) error {
	head, tail := "data: ", "\r\n\r\n"
	if !cw.sse {
		head, tail = ",", ""
		if cw.n == 0 {
			head = "["
		}
	}
	if _, err := io.WriteString(cw.w, head); err != nil {
		return err
	}
	if _, err := cw.w.Write(chunk); err != nil {
		return err
	}
	if _, err := io.WriteString(cw.w, tail); err != nil {
		return err
	}
	cw.n++
	if cw.flusher != nil {
		cw.flusher.Flush()
	}
	return nil
}

// end closes the JSON array; server-sent events need no end.
func (cw *chunkWriter) end() {
	if !cw.sse {
		_, _ = io.WriteString(cw.w, "]")
	}
}

// writeAPIError writes Google's error JSON with status e.Code.
func writeAPIError(w http.ResponseWriter, e APIError) {
	if e.Status == "" {
		e.Status = statusName(e.Code)
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(e.Code)
	_ = json.NewEncoder(w).Encode(map[string]APIError{"error": e})
}

// statusName returns the google.rpc status name Google APIs send with an
// HTTP status code.
func statusName(code int) string {
	switch code {
	case http.StatusBadRequest:
		return "INVALID_ARGUMENT"
	case http.StatusUnauthorized:
		return "UNAUTHENTICATED"
	case http.StatusForbidden:
		return "PERMISSION_DENIED"
	case http.StatusNotFound:
		return "NOT_FOUND"
	case http.StatusConflict:
		return "ABORTED"
	case http.StatusTooManyRequests:
		return "RESOURCE_EXHAUSTED"
	case 499:
		return "CANCELLED"
	case http.StatusNotImplemented:
		return "NOT_IMPLEMENTED"
	case http.StatusServiceUnavailable:
		return "UNAVAILABLE"
	case http.StatusGatewayTimeout:
		return "DEADLINE_EXCEEDED"
	}
	if code >= 500 {
		return "INTERNAL"
	}
	return "FAILED_PRECONDITION"
}
