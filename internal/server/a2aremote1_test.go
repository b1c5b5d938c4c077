package server_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
)

// a2a1Stream is what an A2A 1.0 server (a2a-sdk 1.x's, serving ADK
// 2.13's to_a2a) streams for one message: the task with the user's
// message, a working update without a message, one with the agent's
// text, the answer's artifact in two chunks, and the closing status.
var a2a1Stream = []string{
	`{"task":{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_SUBMITTED"},"history":[{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"Forecast?"}]}]}}`,
	`{"statusUpdate":{"taskId":"t1","contextId":"c1","status":{"state":"TASK_STATE_WORKING"},"metadata":{"adk_app_name":"forecaster"}}}`,
	`{"statusUpdate":{"taskId":"t1","contextId":"c1","status":{"state":"TASK_STATE_WORKING","message":{"messageId":"m2","role":"ROLE_AGENT","parts":[{"text":"Checking the sky."}]}}}}`,
	`{"artifactUpdate":{"taskId":"t1","contextId":"c1","artifact":{"artifactId":"a1","parts":[{"text":"Rain"}]}}}`,
	`{"artifactUpdate":{"taskId":"t1","contextId":"c1","append":true,"lastChunk":true,"artifact":{"artifactId":"a1","parts":[{"text":" tomorrow."}]}}}`,
	`{"statusUpdate":{"taskId":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"}}}`,
}

// a2a1Server serves an A2A 1.0 card that declares streaming and answers
// SendStreamingMessage with stream's items as server-sent events, holding
// the stream after its first event until release is closed; SendMessage
// gets the finished task. It records the methods called and their Accept
// headers.
func a2a1Server(t *testing.T, stream []string, release <-chan struct{}) (*httptest.Server, func() []string) {
	t.Helper()
	var mu sync.Mutex
	var calls []string
	var ts *httptest.Server
	ts = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/.well-known/agent-card.json" {
			fmt.Fprintf(w, `{"name":"forecaster","description":"Forecasts.","version":"1","capabilities":{"streaming":true},
				"supportedInterfaces":[{"url":%q,"protocolBinding":"JSONRPC","protocolVersion":"1.0"}],
				"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[]}`, ts.URL+"/rpc")
			return
		}
		var req struct {
			ID     string `json:"id"`
			Method string `json:"method"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		mu.Lock()
		calls = append(calls, req.Method+" "+r.Header.Get("Accept"))
		mu.Unlock()
		frame := func(result string) string { return `{"jsonrpc":"2.0","id":"` + req.ID + `","result":` + result + `}` }
		if req.Method == "SendMessage" {
			_, _ = io.WriteString(w, frame(`{"task":{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"},
				"artifacts":[{"artifactId":"a1","parts":[{"text":"Rain tomorrow."}]}]}}`))
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for i, item := range stream {
			fmt.Fprintf(w, ": ping\n\ndata: %s\n\n", frame(item))
			w.(http.Flusher).Flush()
			if i == 0 {
				select {
				case <-release:
				case <-r.Context().Done():
					return
				}
			}
		}
	}))
	t.Cleanup(ts.Close)
	return ts, func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), calls...) }
}

// TestRemoteA2aAgentStreamsA2A1: an ADK 2.x app's RemoteA2aAgent streams
// its message to an A2A 1.0 interface whose card declares streaming
// (SendStreamingMessage, read as server-sent events) and yields an event
// per update as it comes, as ADK 2.13's does: the task (without content:
// its history holds only the user's message), the working update's
// message as thoughts, each artifact chunk (partial until its last, one
// event id for the artifact) and the closing status, with the task as
// a2a-sdk 1.x keeps it; an ADK 1.x app sends SendMessage and yields the
// one answer.
func TestRemoteA2aAgentStreamsA2A1(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	ts, calls := a2a1Server(t, a2a1Stream, release)
	front1, front2 := remoteCaller(t, ts.URL, "front1", ""), remoteCaller(t, ts.URL, "front2", "2.x")
	ctx := testContext(t)

	stream, err := front2.runner.Run(ctx, &api.RunRequest{AppName: "front2", UserId: userID, SessionId: callerSession(t, front2, "front2"),
		NewMessage: et.UserText("Forecast?")})
	if err != nil {
		t.Fatal(err)
	}
	var events []*v1.Event
	for {
		resp, err := stream.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("after %v: %v", et.Events(events), err)
		}
		if len(events) == 0 {
			// The first update arrives while the remote still holds its stream.
			close(release)
		}
		events = append(events, resp.GetEvent())
	}
	var got []string
	for _, ev := range events {
		s := ""
		if ev.Partial != nil {
			s = fmt.Sprintf("(partial=%v)", ev.GetPartial())
		}
		for _, p := range ev.GetContent().GetParts() {
			if p.GetThought() {
				s += "(thought)"
			}
			s += p.GetText()
		}
		meta := ev.GetCustomMetadata().GetFields()
		if ev.GetAuthor() != "forecast" || meta["a2a:task_id"].GetStringValue() != "t1" || meta["a2a:context_id"].GetStringValue() != "c1" ||
			meta["a2a:request"] == nil || meta["a2a:response"] == nil {
			t.Errorf("event %v", ev)
		}
		got = append(got, s)
	}
	want := " | (thought)Checking the sky. | (partial=true)Rain | (partial=false) tomorrow. | "
	if strings.Join(got, " | ") != want {
		t.Fatalf("streamed %q, want %q", strings.Join(got, " | "), want)
	}
	if events[2].GetId() != events[3].GetId() {
		t.Errorf("artifact chunks have ids %q and %q", events[2].GetId(), events[3].GetId())
	}
	last, _ := json.Marshal(events[4].GetCustomMetadata().GetFields()["a2a:response"].AsInterface())
	for _, w := range []string{`"state":"completed"`, `"text":"Checking the sky."`, `"text":" tomorrow."`, `"adk_app_name":"forecaster"`} {
		if !strings.Contains(string(last), w) {
			t.Errorf("last a2a:response lacks %s: %s", w, last)
		}
	}

	events, err = front1.run(ctx, &api.RunRequest{AppName: "front1", UserId: userID, SessionId: callerSession(t, front1, "front1"),
		NewMessage: et.UserText("Forecast?")})
	if err != nil {
		t.Fatal(err)
	}
	if g := strings.Join(et.Events(events), " | "); g != "forecast: Rain tomorrow." {
		t.Fatalf("1.x events = %q", g)
	}
	if g := strings.Join(calls(), " | "); g != "SendStreamingMessage text/event-stream | SendMessage " {
		t.Fatalf("calls = %q", g)
	}
}

// TestRemoteA2aAgentStreamCutShort: a stream that ends while its task
// still works ends the turn with ADK 2.13's error event.
func TestRemoteA2aAgentStreamCutShort(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	close(release)
	ts, _ := a2a1Server(t, a2a1Stream[:3], release)
	front := remoteCaller(t, ts.URL, "front", "2.x")
	ctx := testContext(t)
	events, err := front.run(ctx, &api.RunRequest{AppName: "front", UserId: userID, SessionId: callerSession(t, front, "front"),
		NewMessage: et.UserText("Forecast?")})
	if err != nil {
		t.Fatal(err)
	}
	last := events[len(events)-1]
	if len(events) != 3 || last.GetErrorMessage() != "A2A response stream ended before task t1 reached a terminal state." ||
		last.GetCustomMetadata().GetFields()["a2a:request"] == nil {
		t.Fatalf("events = %v", events)
	}
}

// remoteCaller is a fixture of app, whose root agent's sub-agent forecast
// is a RemoteA2aAgent of the card served at base, with adk_behavior
// behavior when set.
func remoteCaller(t *testing.T, base, app, behavior string) *fixture {
	t.Helper()
	files := fstest.MapFS{
		app + "/root_agent.yaml": {Data: []byte("agent_class: SequentialAgent\nname: front\nsub_agents:\n  - config_path: remote.yaml\n")},
		app + "/remote.yaml": {Data: []byte("agent_class: RemoteA2aAgent\nname: forecast\nagent_card: " + base +
			"/.well-known/agent-card.json\ntimeout: 30\n")},
	}
	if behavior != "" {
		files[app+"/app.yaml"] = &fstest.MapFile{Data: []byte("adk_behavior: \"" + behavior + "\"\n")}
	}
	return newFixture(t, withApp(files))
}

// callerSession is a new session of app for userID.
func callerSession(t *testing.T, f *fixture, app string) string {
	t.Helper()
	sess, err := f.sessions.CreateSession(testContext(t), &api.CreateSessionRequest{AppName: app, UserId: userID})
	if err != nil {
		t.Fatal(err)
	}
	return sess.GetSession().GetId()
}
