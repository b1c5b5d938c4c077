package fakegemini

import (
	"encoding/json"
	"net/http"
)

// maxControlBytes bounds a control request body.
const maxControlBytes = 16 << 20

// handleScript serves POST /_fake/script: a [Script] appended to the
// server's. It answers {"responses":N,"rules":M} with the queued and rule
// counts now held.
func (s *Server) handleScript(w http.ResponseWriter, r *http.Request) {
	var sc Script
	if !decodeControl(w, r, &sc) {
		return
	}
	if err := s.Apply(sc); err != nil {
		writeAPIError(w, APIError{Code: http.StatusBadRequest, Message: err.Error()})
		return
	}
	s.mu.Lock()
	queued := 0
	for _, q := range s.queues {
		queued += len(q)
	}
	rules := len(s.rules)
	s.mu.Unlock()
	writeJSON(w, map[string]int{"responses": queued, "rules": rules})
}

// handleReset serves POST /_fake/reset.
func (s *Server) handleReset(w http.ResponseWriter, _ *http.Request) {
	s.Reset()
	writeJSON(w, map[string]bool{"ok": true})
}

// handleRequests serves GET /_fake/requests: the recorded requests, oldest
// first, as a JSON array.
func (s *Server) handleRequests(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, s.Requests())
}

// handleFaults serves POST /_fake/faults with a [Faults] body.
func (s *Server) handleFaults(w http.ResponseWriter, r *http.Request) {
	var f Faults
	if !decodeControl(w, r, &f) {
		return
	}
	if err := s.SetFaults(f); err != nil {
		writeAPIError(w, APIError{Code: http.StatusBadRequest, Message: err.Error()})
		return
	}
	writeJSON(w, map[string]bool{"ok": true})
}

// decodeControl reads a JSON body strictly into v, answering 400 when it
// cannot.
func decodeControl(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxControlBytes))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		writeAPIError(w, APIError{Code: http.StatusBadRequest, Message: "fakegemini: invalid control request: " + err.Error()})
		return false
	}
	return true
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}
