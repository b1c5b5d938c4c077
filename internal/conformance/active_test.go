package conformance_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/conformance"
	"github.com/agentsvc/agentsvc/internal/models/scripted"
	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// TestRecordingsOfInvocationsSharingAnID: two users' invocations of one
// id (a caller chooses it when resuming an invocation or retrying a
// request of its own session), recording at once, each write their own
// recordings to their own case.
func TestRecordingsOfInvocationsSharingAnID(t *testing.T) {
	t.Parallel()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	rec, err := conformance.NewRecorder(root)
	if err != nil {
		t.Fatal(err)
	}
	agent, err := llmagent.New(llmagent.Config{Name: "a", Model: "scripted"})
	if err != nil {
		t.Fatal(err)
	}
	var h *et.Harness
	sameID := &runtime.Plugin{Name: "same_id", BeforeRun: func(ictx *runtime.InvocationContext) (*v1.Content, error) {
		ictx.InvocationID = "inv-shared"
		return nil, nil
	}}
	// While alice's invocation records, bob's of the same id runs whole.
	nested := &runtime.Plugin{Name: "nested", BeforeRun: func(ictx *runtime.InvocationContext) (*v1.Content, error) {
		if ictx.UserID() == et.UserID {
			run(t, h, "bob", root, "from bob")
		}
		return nil, nil
	}}
	h = et.New(t, agent, sameID, rec.Plugin(), nested)
	h.Models.Add(scripted.New("scripted", et.Text("one"), et.Text("two")))
	run(t, h, et.UserID, root, "from alice")
	for user, want := range map[string]string{et.UserID: "from alice", "bob": "from bob"} {
		b, err := os.ReadFile(filepath.Join(root, user, "generated-recordings.yaml"))
		if err != nil || !strings.Contains(string(b), want) {
			t.Errorf("%s's recordings = %q, %v; want its own (%q)", user, b, err, want)
		}
	}
}

// run runs text in a new session of user recording to root/user.
func run(t *testing.T, h *et.Harness, user, root, text string) {
	t.Helper()
	dir := filepath.Join(root, user)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	st, err := structpb.NewStruct(map[string]any{conformance.RecordKey: map[string]any{"dir": dir, "user_message_index": 0}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := h.Sessions.Create(t.Context(), sessions.CreateRequest{AppName: et.AppName, UserID: user, State: st})
	if err != nil {
		t.Fatal(err)
	}
	for _, err := range h.Runner.Run(t.Context(), runtime.RunRequest{UserID: user, SessionID: s.Id, NewMessage: et.UserText(text)}) {
		if err != nil {
			t.Fatalf("%s's run: %v", user, err)
		}
	}
}
