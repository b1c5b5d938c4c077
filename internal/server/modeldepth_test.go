package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/limits"
	"github.com/agentsvc/agentsvc/internal/models/scripted"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
)

// deepCall is a model answer calling a tool with arguments nested depth
// levels deep.
func deepCall(depth int) *v1.LlmResponse {
	return &v1.LlmResponse{Content: &v1.Content{Role: "model", Parts: []*v1.Part{{FunctionCall: &v1.FunctionCall{
		Name: "get_weather", Args: &structpb.Struct{Fields: map[string]*structpb.Value{"city": structpb.NewStructValue(deepStruct(depth - 1))}}}}}}}
}

// TestModelResponseOverTheCap has the model answer with function call
// arguments past the cap, whole or as a streamed chunk: the run fails as a
// failed model call does (never INTERNAL or UNKNOWN), only the user's
// message is stored, and the app keeps serving another user.
func TestModelResponseOverTheCap(t *testing.T) {
	t.Parallel()
	for _, depth := range []int{limits.DefaultMaxDepth + 1, 20000} {
		for _, tc := range []struct {
			name   string
			stream bool
			rest   bool
		}{{"grpc", false, false}, {"grpc streamed", true, false}, {"rest", false, true}} {
			if depth > limits.DefaultMaxDepth+1 && tc.name != "grpc" {
				continue // the engine checks every response the same way
			}
			t.Run(fmt.Sprintf("%s/%d", tc.name, depth), func(t *testing.T) {
				t.Parallel()
				s := newLimitStack(t)
				ctx := testContext(t)
				sid := s.create(t, ctx, userID)
				if tc.stream {
					s.model.Push(scripted.Stream(et.Text("Let me look"), deepCall(depth)))
				} else {
					s.model.Enqueue(deepCall(depth))
				}

				var err error
				if tc.rest {
					code, body := s.restCall(t, ctx, "POST", "/run", fmt.Sprintf(
						`{"appName":%q,"userId":%q,"sessionId":%q,"newMessage":{"parts":[{"text":"weather?"}]}}`, appName, userID, sid))
					if code == http.StatusOK || code == http.StatusInternalServerError {
						t.Fatalf("HTTP %d %s, want the model's failure", code, truncate(body))
					}
					err = restStatus(t, body)
				} else {
					req := runReq(sid)
					if tc.stream {
						req.RunConfig = &api.RunConfig{StreamingMode: api.StreamingMode_STREAMING_MODE_SSE}
					}
					err = drainRun(s.runner.Run(ctx, req))
				}
				switch status.Code(err) {
				case codes.OK, codes.Internal, codes.Unknown:
					t.Fatalf("run = %v, want the failure of the model call", err)
				}

				after := s.snapshot(t, ctx, userID, sid)
				if err := limits.CheckDepth("session", after, limits.DefaultMaxDepth); err != nil {
					t.Errorf("the session holds a value over the cap: %v", err)
				}
				if got := strings.Join(et.Events(after.Events), " | "); got != "user: hi" && got != "user: weather?" {
					t.Errorf("stored events = %q, want only the user's message", got)
				}
				s.checkOtherUserServed(t, ctx)
			})
		}
	}
}

// TestAppStateOverTheCapCannotBreakListSessions stores nothing too deep
// under an app: key, which every session of the app shares: before the
// cap, one such value (6,000 levels pass REST's decoder, and are past
// protobuf's limit once in a response) made ListSessions and GetSession
// fail for every user of the app.
func TestAppStateOverTheCapCannotBreakListSessions(t *testing.T) {
	t.Parallel()
	s := newLimitStack(t)
	ctx := testContext(t)
	other := s.create(t, ctx, "u2")
	for _, depth := range []int{limits.DefaultMaxDepth + 1, 6000} {
		code, body := s.restCall(t, ctx, "POST", "/apps/"+appName+"/users/"+userID+"/sessions",
			`{"state":{"app:shared":`+deepJSON(depth)+`}}`)
		if code != http.StatusBadRequest {
			t.Errorf("depth %d: HTTP %d %s, want 400", depth, code, truncate(body))
		}
	}
	list, err := s.sessions.ListSessions(ctx, &api.ListSessionsRequest{AppName: appName, UserId: "u2"})
	if err != nil || len(list.GetSessions()) != 1 {
		t.Fatalf("ListSessions of another user = %v, %v; want its one session", list, err)
	}
	if _, ok := list.Sessions[0].GetState().GetFields()["app:shared"]; ok {
		t.Error("the rejected app: value was stored")
	}
	if _, err := s.sessions.GetSession(ctx, &api.GetSessionRequest{AppName: appName, UserId: "u2", SessionId: other}); err != nil {
		t.Errorf("GetSession of another user: %v", err)
	}
}
