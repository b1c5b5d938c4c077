package server_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/server"
	"github.com/agentsvc/agentsvc/internal/sessions"
	"github.com/agentsvc/agentsvc/internal/sessions/memory"
)

// listStores are the stores the ListSessions tests run on: memory, and the
// Redis of AGENTSVC_TEST_REDIS when it is set.
func listStores(t *testing.T) map[string]func(t *testing.T) sessions.Service {
	stores := map[string]func(t *testing.T) sessions.Service{
		"memory": func(*testing.T) sessions.Service { return memory.New() },
	}
	if os.Getenv("AGENTSVC_TEST_REDIS") != "" {
		stores["redis"] = limitStore
	}
	return stores
}

// createSessions creates n sessions of user, each with a state of
// stateBytes, and returns their ids in creation order.
func createSessions(t *testing.T, store sessions.Service, user string, n, stateBytes int) []string {
	t.Helper()
	var ids []string
	for i := range n {
		st, _ := structpb.NewStruct(map[string]any{"pad": strings.Repeat("x", stateBytes)})
		sess, err := store.Create(t.Context(), sessions.CreateRequest{AppName: appName, UserID: user, SessionID: fmt.Sprintf("s%02d", i), State: st})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, sess.Id)
	}
	return ids
}

// listAll reads every page of ListSessions from req and returns the
// session ids and the sessions on each page.
func listAll(t *testing.T, r *replica, req *api.ListSessionsRequest) (ids []string, pages []int) {
	t.Helper()
	for range 100 {
		var header metadata.MD
		resp, err := r.sessions.ListSessions(t.Context(), req, grpc.Header(&header))
		if err != nil {
			t.Fatalf("ListSessions page %d: %v", len(pages), err)
		}
		if got := first(header.Get("next-page-token")); got != resp.NextPageToken {
			t.Errorf("next-page-token header %q, want the body's %q", got, resp.NextPageToken)
		}
		pages = append(pages, len(resp.Sessions))
		for _, s := range resp.Sessions {
			if len(s.Events) > 0 || s.State.GetFields()["pad"] == nil {
				t.Errorf("listed session %s: %d events, state %v; want none, and its state", s.Id, len(s.Events), s.State)
			}
			ids = append(ids, s.Id)
		}
		if resp.NextPageToken == "" {
			return ids, pages
		}
		req = proto.CloneOf(req)
		req.PageToken = resp.NextPageToken
	}
	t.Fatal("no last page after 100 pages")
	return nil, nil
}

// TestListSessionsPages: pages cover a user's sessions once each, oldest
// first; a page ends early rather than pass the page size in bytes; the
// whole list is refused when it would not fit in a response; tokens of
// another listing or tampered with are INVALID_ARGUMENT.
func TestListSessionsPages(t *testing.T) {
	t.Parallel()
	for name, newStore := range listStores(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			store := newStore(t)
			r := newReplica(t, store, server.Config{MaxResponseBytes: 20 << 10, PageBytes: 8 << 10})
			want := createSessions(t, store, userID, 7, 10)
			createSessions(t, store, "u2", 2, 10)
			key := &api.ListSessionsRequest{AppName: appName, UserId: userID}
			for _, tc := range []struct {
				size  int32
				pages []int
			}{{1, []int{1, 1, 1, 1, 1, 1, 1}}, {3, []int{3, 3, 1}}, {7, []int{7}}, {5000, []int{7}}} {
				req := proto.CloneOf(key)
				req.PageSize = tc.size
				ids, pages := listAll(t, r, req)
				if !slices.Equal(ids, want) || !slices.Equal(pages, tc.pages) {
					t.Errorf("page_size %d: %v in pages %v, want %v in %v", tc.size, ids, pages, want, tc.pages)
				}
			}
			whole, err := r.sessions.ListSessions(t.Context(), key)
			if err != nil || len(whole.Sessions) != 7 || whole.NextPageToken != "" {
				t.Fatalf("ListSessions without paging: %v, %v; want all 7 sessions", whole, err)
			}

			// Sessions of 2 KiB state: pages of 8 KiB hold 3; all 11
			// (~23 KiB) pass the 20 KiB response limit.
			big := createSessions(t, store, "u3", 11, 2<<10)
			ids, pages := listAll(t, r, &api.ListSessionsRequest{AppName: appName, UserId: "u3", PageSize: 100})
			if !slices.Equal(ids, big) || slices.Max(pages) > 3 {
				t.Errorf("pages of big sessions: %v in pages %v, want %v in pages of at most 3", ids, pages, big)
			}
			_, err = r.sessions.ListSessions(t.Context(), &api.ListSessionsRequest{AppName: appName, UserId: "u3"})
			checkStatus(t, err, codes.ResourceExhausted, "RESPONSE_TOO_LARGE", "list them in pages with page_size and page_token")

			first, err := r.sessions.ListSessions(t.Context(), &api.ListSessionsRequest{AppName: appName, UserId: userID, PageSize: 2})
			if err != nil {
				t.Fatal(err)
			}
			get, err := r.sessions.GetSession(t.Context(), &api.GetSessionRequest{AppName: appName, UserId: userID, SessionId: want[0], PageSize: 1})
			if err != nil {
				t.Fatal(err)
			}
			tok := first.NextPageToken
			raw, _ := base64.RawURLEncoding.DecodeString(tok)
			raw[len(raw)-len(want[1])-1] ^= 1 // in the listing's fingerprint
			tampered := base64.RawURLEncoding.EncodeToString(raw)
			for name, req := range map[string]*api.ListSessionsRequest{
				"another user's":  {AppName: appName, UserId: "u2", PageToken: tok},
				"GetSession's":    {AppName: appName, UserId: userID, PageToken: get.NextPageToken + "AAAA"},
				"garbage":         {AppName: appName, UserId: userID, PageToken: "not a token"},
				"tampered":        {AppName: appName, UserId: userID, PageToken: tampered},
				"longer":          {AppName: appName, UserId: userID, PageToken: tok + "A"},
				"negative size":   {AppName: appName, UserId: userID, PageSize: -1},
				"oversized token": {AppName: appName, UserId: userID, PageToken: strings.Repeat("A", 4096)},
			} {
				_, err := r.sessions.ListSessions(t.Context(), req)
				if err == nil {
					t.Errorf("%s token: no error", name)
					continue
				}
				checkStatus(t, err, codes.InvalidArgument, "INVALID_ARGUMENT", "")
			}
		})
	}
}

// TestListSessionsPagesOverREST: the list route takes page_size and
// page_token and keeps ADK's bare array, the next token in the
// Grpc-Metadata-Next-Page-Token header.
func TestListSessionsPagesOverREST(t *testing.T) {
	t.Parallel()
	for name, newStore := range listStores(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			store := newStore(t)
			r := newReplica(t, store, server.Config{})
			want := createSessions(t, store, userID, 5, 10)
			list := func(query url.Values) ([]string, string) {
				t.Helper()
				req := httptest.NewRequestWithContext(t.Context(), "GET",
					"http://127.0.0.1/apps/"+appName+"/users/"+userID+"/sessions?"+query.Encode(), nil)
				w := httptest.NewRecorder()
				r.http.ServeHTTP(w, req)
				if w.Code != http.StatusOK {
					t.Fatalf("GET ?%s: %d %s", query.Encode(), w.Code, w.Body)
				}
				var body []struct {
					ID string `json:"id"`
				}
				if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
					t.Fatalf("the body is not a bare array of sessions: %v: %s", err, w.Body)
				}
				var ids []string
				for _, s := range body {
					ids = append(ids, s.ID)
				}
				return ids, w.Header().Get("Grpc-Metadata-Next-Page-Token")
			}
			if all, next := list(nil); !slices.Equal(all, want) || next != "" {
				t.Errorf("GET without paging: %v %q, want %v and no token", all, next, want)
			}
			var got []string
			q := url.Values{"page_size": {"2"}}
			for range 10 {
				ids, next := list(q)
				got = append(got, ids...)
				if next == "" {
					break
				}
				q.Set("page_token", next)
			}
			if !slices.Equal(got, want) {
				t.Errorf("sessions over REST pages = %v, want %v", got, want)
			}
		})
	}
}
