package integration

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/integration/fakegemini"
)

// readAudit waits until the audit file holds n lines and returns them.
func readAudit(t *testing.T, path string, n int) []map[string]any {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var lines []map[string]any
		if f, err := os.Open(path); err == nil {
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				var m map[string]any
				if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
					t.Fatalf("audit line %q is not JSON: %v", sc.Text(), err)
				}
				lines = append(lines, m)
			}
			f.Close()
		}
		if len(lines) >= n || time.Now().After(deadline) {
			return lines
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestAuditLogAndRequestIDs: the binary answers every call with its
// request id (the caller's, or a new one) and, with --audit-log, writes a
// JSON line for each state-changing call over gRPC and REST, refused ones
// included, without the prompt.
func TestAuditLogAndRequestIDs(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	s := startStack(t, map[string]string{"weather": weatherAgent}, "--audit-log", path)
	ctx := metadata.AppendToOutgoingContext(t.Context(), "x-request-id", "it-create-1")
	var header metadata.MD
	created, err := api.NewSessionServiceClient(s.conn).CreateSession(ctx,
		&api.CreateSessionRequest{AppName: "weather", UserId: "alice"}, grpc.Header(&header))
	if err != nil {
		t.Fatal(err)
	}
	if got := header.Get("x-request-id"); len(got) != 1 || got[0] != "it-create-1" {
		t.Errorf("CreateSession's x-request-id header = %v, want [it-create-1]", got)
	}
	sid := created.Session.Id

	s.script(t, fakegemini.Text("Sunny."))
	do := func(method, path, body, id string) *http.Response {
		t.Helper()
		req, err := http.NewRequestWithContext(t.Context(), method, s.httpURL+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		if id != "" {
			req.Header.Set("X-Request-Id", id)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	run := fmt.Sprintf(`{"appName":"weather","userId":"alice","sessionId":%q,"newMessage":{"parts":[{"text":"secret prompt"}]}}`, sid)
	if resp := do("POST", "/run", run, "it-run-1"); resp.StatusCode != 200 || resp.Header.Get("X-Request-Id") != "it-run-1" {
		t.Errorf("POST /run: %d, X-Request-Id %q; want 200, it-run-1", resp.StatusCode, resp.Header.Get("X-Request-Id"))
	}
	resp := do("DELETE", "/apps/weather/users/alice/sessions/"+sid, "", "caf\xc3\xa9")
	uuid := regexp.MustCompile(`^[0-9a-f-]{36}$`)
	if resp.StatusCode != 200 || !uuid.MatchString(resp.Header.Get("X-Request-Id")) {
		t.Errorf("DELETE: %d, X-Request-Id %q; want 200 and a new UUID", resp.StatusCode, resp.Header.Get("X-Request-Id"))
	}
	if resp := do("POST", "/run", run, "it-run-2"); resp.StatusCode != 404 {
		t.Errorf("POST /run in the deleted session: %d, want 404", resp.StatusCode)
	}

	lines := readAudit(t, path, 4)
	var got []string
	for _, m := range lines {
		got = append(got, fmt.Sprintf("%v %v %v %v %v/%v", m["request_id"], m["op"], m["code"], m["caller"], m["app"], m["user"]))
	}
	want := []string{
		"it-create-1 /agentsvc.v1.SessionService/CreateSession OK anonymous weather/alice",
		"it-run-1 POST /run OK anonymous weather/alice",
		resp.Header.Get("X-Request-Id") + " DELETE /apps/{app_name}/users/{user_id}/sessions/{session_id} OK anonymous weather/alice",
		"it-run-2 POST /run NotFound anonymous weather/alice",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("audit lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if b, _ := os.ReadFile(path); strings.Contains(string(b), "secret prompt") {
		t.Errorf("the audit log holds the prompt:\n%s", b)
	}
}
