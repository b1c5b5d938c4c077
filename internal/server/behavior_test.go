package server_test

import (
	"strings"
	"testing"
	"testing/fstest"

	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// TestRESTRunWithoutMessage: an app of ADK 2.x behaviour continues the
// session when /run comes without newMessage; one of 1.x refuses it, as
// ADK 1.x does, and calls no model.
func TestRESTRunWithoutMessage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		behavior string
		status   int
		want     string
	}{
		{"1.x", 400, "new_message must have at least one part"},
		{"2.x", 200, `"text":"continued"`},
	}
	for _, tt := range tests {
		t.Run(tt.behavior, func(t *testing.T) {
			t.Parallel()
			app := fstest.MapFS{}
			for k, v := range deskApp {
				app[k] = v
			}
			app[appName+"/app.yaml"] = &fstest.MapFile{Data: []byte("adk_behavior: \"" + tt.behavior + "\"\n")}
			fx := newFixture(t, withoutGRPC(), withApp(app))
			s := &restStack{fixture: fx, http: fx.serveHTTP(t)}
			s.session(t, "s1")
			s.model.Enqueue(et.Text("continued"))
			got := s.do(t, request{method: "POST", path: "/run",
				body: `{"appName":"` + appName + `","userId":"` + userID + `","sessionId":"s1"}`})
			if got.status != tt.status || !strings.Contains(got.body, tt.want) {
				t.Fatalf("got %d %s, want %d with %s", got.status, got.body, tt.status, tt.want)
			}
			sess, err := s.store.Get(t.Context(), sessions.GetRequest{AppName: appName, UserID: userID, SessionID: "s1"})
			if err != nil {
				t.Fatal(err)
			}
			if want := map[string]int{"1.x": 0, "2.x": 1}[tt.behavior]; len(sess.Events) != want {
				t.Errorf("stored %d events, want %d (no user event)", len(sess.Events), want)
			}
		})
	}
}
