package server_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
)

// TestGetSessionConfigOverGRPCAndREST: run_config.get_session_config
// selects the history the model sees over gRPC and over REST, where the
// JSON names are protobuf's camelCase or snake_case (ADK's API server has
// no run config; ADK's RunConfig spells get_session_config in snake_case);
// a negative count or a timestamp that is not a finite number is refused
// and stores nothing.
func TestGetSessionConfigOverGRPCAndREST(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	httpURL := fx.serveHTTP(t).URL
	ctx := testContext(t)
	resp, err := fx.sessions.CreateSession(ctx, &api.CreateSessionRequest{AppName: appName, UserId: userID})
	if err != nil {
		t.Fatal(err)
	}
	sid := resp.Session.Id
	user := func(text string) *v1.Content { return &v1.Content{Role: "user", Parts: []*v1.Part{{Text: text}}} }
	for _, text := range []string{"t1", "t2"} {
		fx.model.Enqueue(et.Text("a" + text[1:]))
		if _, err := fx.run(ctx, &api.RunRequest{AppName: appName, UserId: userID, SessionId: sid, NewMessage: user(text)}); err != nil {
			t.Fatal(err)
		}
	}
	lastContents := func() []string {
		reqs := fx.model.Requests()
		return et.Contents(reqs[len(reqs)-1].Contents)
	}
	prefix := `{"appName":"` + appName + `","userId":"` + userID + `","sessionId":"` + sid + `",`

	fx.model.Enqueue(et.Text("a3"))
	if _, err := fx.run(ctx, &api.RunRequest{AppName: appName, UserId: userID, SessionId: sid, NewMessage: user("t3"),
		RunConfig: &api.RunConfig{GetSessionConfig: &api.GetSessionConfig{NumRecentEvents: proto.Int32(2)}}}); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"user: t2", "model: a2", "user: t3"}, lastContents()); d != "" {
		t.Errorf("grpc num_recent_events 2 (-want +got):\n%s", d)
	}
	for _, tc := range []struct{ body, text string }{
		{`"runConfig":{"getSessionConfig":{"numRecentEvents":0}}`, "t4"},
		{`"run_config":{"get_session_config":{"num_recent_events":0}}`, "t5"},
	} {
		fx.model.Enqueue(et.Text("ok"))
		code, body := postJSON(t, httpURL+"/run", prefix+tc.body+`,"newMessage":{"role":"user","parts":[{"text":"`+tc.text+`"}]}}`)
		if code != 200 {
			t.Fatalf("/run %s: %d %s", tc.body, code, body)
		}
		if d := cmp.Diff([]string{"user: " + tc.text}, lastContents()); d != "" {
			t.Errorf("rest %s (-want +got):\n%s", tc.body, d)
		}
	}

	stored := func() int {
		s, err := fx.sessions.GetSession(ctx, &api.GetSessionRequest{AppName: appName, UserId: userID, SessionId: sid})
		if err != nil {
			t.Fatal(err)
		}
		return len(s.Session.Events)
	}
	before := stored()
	for _, bad := range []string{`{"numRecentEvents":-1}`, `{"afterTimestamp":"NaN"}`, `{"afterTimestamp":"-Infinity"}`} {
		code, body := postJSON(t, httpURL+"/run", prefix+`"runConfig":{"getSessionConfig":`+bad+`},"newMessage":{"role":"user","parts":[{"text":"x"}]}}`)
		if code != 400 {
			t.Errorf("/run %s: %d %s, want 400", bad, code, body)
		}
	}
	_, err = fx.run(ctx, &api.RunRequest{AppName: appName, UserId: userID, SessionId: sid, NewMessage: user("x"),
		RunConfig: &api.RunConfig{GetSessionConfig: &api.GetSessionConfig{NumRecentEvents: proto.Int32(-5)}}})
	if status.Code(err) != codes.InvalidArgument {
		t.Errorf("grpc negative num_recent_events: %v, want InvalidArgument", err)
	}
	if n := stored(); n != before {
		t.Errorf("stored events = %d after refused runs, want %d", n, before)
	}
}
