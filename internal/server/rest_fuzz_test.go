package server_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"
)

// restRoute is a REST route whose body a fuzz target sends.
type restRoute struct{ method, path string }

// fuzzRoutes are the routes that read a body, on the desk app's session
// fuzzSession of userID where they name one.
var fuzzRoutes = []restRoute{
	{http.MethodPost, "/run"},
	{http.MethodPost, "/run_sse"},
	{http.MethodPatch, "/apps/" + appName + "/users/" + userID + "/sessions/" + fuzzSession},
	{http.MethodPost, "/apps/" + appName + "/users/" + userID + "/sessions"},
	{http.MethodPost, "/apps/" + appName + "/users/" + userID + "/sessions/" + fuzzSession + "/rewind"},
}

// FuzzRESTBody sends a fuzzed body to a body-reading REST route of a fresh
// server. Invariants: no panic; never a 5xx; a rejected request (any status
// but 200 before the model was called: /run answers a failure of a started
// run the same way) stores nothing; the invocation ends; the session and the
// user's list stay readable, and the session takes the next run.
func FuzzRESTBody(f *testing.F) {
	const run = `{"appName": "desk", "userId": "u1", "sessionId": "s1", `
	for _, seed := range []struct {
		route uint8
		body  string
	}{
		{0, run + `"newMessage": {"role": "user", "parts": [{"text": "Hello"}]}, "streaming": false}`},
		{0, run + `"newMessage": {"parts": [{"text": "call Paris"}]}}`},
		{0, run + `"newMessage": {"parts": [{"text": "x"}]}, "stateDelta": {"a": {"b": [1, "c", null, true]}}}`},
		{0, `{"appName": "desk", "userId": "u1", "sessionId": "missing", "newMessage": {"parts": [{"text": "x"}]}}`},
		{0, `{"app_name": "desk", "user_id": "u1", "session_id": "s1", "new_message": {"parts": [{"text": "x"}]}, "run_config": {"max_llm_calls": 1}}`},
		{1, run + `"newMessage": {"role": "user", "parts": [{"text": "Is it raining?"}]}, "streaming": true}`},
		{1, run + `"newMessage": {"parts": [{"text": "x"}]}, "runConfig": {"streamingMode": "SSE", "customMetadata": {"k": "v"}}}`},
		{1, run + `"newMessage": {"parts": []}}`},
		{2, `{"stateDelta": {"city": "Rome", "app:x": 1, "user:y": [2], "temp:z": {}}}`},
		{2, `{}`},
		{3, `{"state": {"city": "Paris"}}`},
		{3, `{"sessionId": "s2", "state": {"app:k": {"n": [1.5e300, -0]}}}`},
		{4, `{"rewindBeforeInvocationId": "e-123"}`},
		{0, `not json`},
		{0, `[]`},
		{0, ""},
		{0, run + `"newMessage": {"parts": [{"text": "\ud800"}]}}`},
	} {
		f.Add(seed.route, []byte(seed.body))
	}
	f.Fuzz(func(t *testing.T, route uint8, body []byte) {
		r := fuzzRoutes[int(route)%len(fuzzRoutes)]
		fx := newFuzzFixture(t)
		h, err := fx.srv.HTTPHandler(t.Context(), func() bool { return true })
		if err != nil {
			t.Fatal(err)
		}
		before, calls := fx.store.writes.Load(), fx.model.calls.Load()
		code, resp := serve(h, r.method, r.path, body)
		if code >= 500 {
			t.Fatalf("%s %s answered %d: %s", r.method, r.path, code, resp)
		}
		if code != http.StatusOK && !fx.started(calls) && fx.store.writes.Load() != before {
			t.Fatalf("%s %s answered %d (%s) but stored %d writes", r.method, r.path, code, resp, fx.store.writes.Load()-before)
		}
		fx.waitIdle(t)
		for _, after := range []restRoute{
			{http.MethodGet, "/apps/" + appName + "/users/" + userID + "/sessions/" + fuzzSession},
			{http.MethodGet, "/apps/" + appName + "/users/" + userID + "/sessions"},
			fuzzRoutes[0],
		} {
			var body []byte
			if after.method == http.MethodPost {
				body = []byte(`{"appName": "desk", "userId": "u1", "sessionId": "s1", "newMessage": {"parts": [{"text": "Hello"}]}}`)
			}
			if code, resp := serve(h, after.method, after.path, body); code != http.StatusOK {
				t.Fatalf("after %s %s: %s %s answered %d: %s", r.method, r.path, after.method, after.path, code, resp)
			}
		}
	})
}

// serve sends one request to h, as a local client sends it, and returns
// the status and the body.
func serve(h http.Handler, method, path string, body []byte) (int, []byte) {
	req := httptest.NewRequest(method, "http://localhost"+path, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code, rec.Body.Bytes()
}
