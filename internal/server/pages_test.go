package server_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/server"
	"github.com/agentsvc/agentsvc/internal/sessions"
	"github.com/agentsvc/agentsvc/internal/sessions/memory"
)

// filledSession creates a session holding one event per text size.
func filledSession(t *testing.T, store sessions.Service, sizes ...int) string {
	t.Helper()
	sess, err := store.Create(t.Context(), sessions.CreateRequest{AppName: appName, UserID: userID})
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range sizes {
		ev := &v1.Event{InvocationId: "e-fill", Author: fmt.Sprintf("a%d", i),
			Content: &v1.Content{Role: "model", Parts: []*v1.Part{{Text: strings.Repeat("x", n)}}}}
		if err := store.AppendEvent(t.Context(), sess, ev); err != nil {
			t.Fatal(err)
		}
	}
	return sess.Id
}

// readPages reads every page of a session and returns the authors and the
// page sizes in bytes.
func readPages(t *testing.T, r *replica, req *api.GetSessionRequest) (authors []string, sizes []int) {
	t.Helper()
	for range 100 {
		resp, err := r.sessions.GetSession(t.Context(), req)
		if err != nil {
			t.Fatalf("GetSession page %d: %v", len(sizes), err)
		}
		sizes = append(sizes, proto.Size(resp))
		for _, ev := range resp.Session.Events {
			authors = append(authors, ev.Author)
		}
		if resp.NextPageToken == "" {
			return authors, sizes
		}
		req = proto.CloneOf(req)
		req.PageToken = resp.NextPageToken
	}
	t.Fatal("no last page after 100 pages")
	return nil, nil
}

func TestGetSessionPages(t *testing.T) {
	t.Parallel()
	store := memory.New()
	r := newReplica(t, store, server.Config{PageBytes: 10_000})
	sizes := make([]int, 25)
	for i := range sizes {
		sizes[i] = 100
	}
	sizes[7], sizes[8], sizes[9] = 4000, 4000, 12_000 // the budget cuts pages; a lone big event still comes
	sid := filledSession(t, store, sizes...)
	key := &api.GetSessionRequest{AppName: appName, UserId: userID, SessionId: sid}

	whole, err := r.sessions.GetSession(t.Context(), key)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, ev := range whole.Session.Events {
		want = append(want, ev.Author)
	}

	req := proto.CloneOf(key)
	req.PageSize = 6
	got, pageSizes := readPages(t, r, req)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("paged events %v, want %v", got, want)
	}
	for i, n := range pageSizes {
		if n > 10_000 && i != 2 { // page 2 is the lone 12,000-byte event
			t.Errorf("page %d is %d bytes, over the page budget", i, n)
		}
	}

	recent := proto.CloneOf(key)
	recent.PageSize, recent.NumRecentEvents = 4, 10
	if got, _ := readPages(t, r, recent); fmt.Sprint(got) != fmt.Sprint(want[15:]) {
		t.Errorf("paged last 10 = %v, want %v", got, want[15:])
	}

	first, err := r.sessions.GetSession(t.Context(), req)
	if err != nil || first.NextPageToken == "" {
		t.Fatalf("first page: %v, token %q", err, first.GetNextPageToken())
	}
	other := filledSession(t, store, 10, 10)
	for name, bad := range map[string]*api.GetSessionRequest{
		"negative_size":    {AppName: appName, UserId: userID, SessionId: sid, PageSize: -1},
		"garbage_token":    {AppName: appName, UserId: userID, SessionId: sid, PageSize: 5, PageToken: "not a token"},
		"forged_token":     {AppName: appName, UserId: userID, SessionId: sid, PageSize: 5, PageToken: first.NextPageToken[:len(first.NextPageToken)-2] + "AA"},
		"other_session":    {AppName: appName, UserId: userID, SessionId: other, PageSize: 5, PageToken: first.NextPageToken},
		"other_selection":  {AppName: appName, UserId: userID, SessionId: sid, PageSize: 5, NumRecentEvents: 3, PageToken: first.NextPageToken},
		"token_of_nothing": {AppName: appName, UserId: userID, SessionId: sid, PageSize: 5, PageToken: "AQ"},
	} {
		_, err := r.sessions.GetSession(t.Context(), bad)
		t.Run(name, func(t *testing.T) { checkStatus(t, err, codes.InvalidArgument, "INVALID_ARGUMENT", "page") })
	}
}

// TestGetSessionLargerThanTheResponseLimit: a session too large to send
// whole is refused with a clear RESOURCE_EXHAUSTED, and pages of it fit a
// client's default 4 MiB receive limit.
func TestGetSessionLargerThanTheResponseLimit(t *testing.T) {
	t.Parallel()
	store := memory.New()
	r := newReplica(t, store, server.Config{MaxResponseBytes: 5 << 20})
	sid := filledSession(t, store, 1<<20, 1<<20, 1<<20, 1<<20, 1<<20, 1<<20)
	key := &api.GetSessionRequest{AppName: appName, UserId: userID, SessionId: sid}
	_, err := r.sessions.GetSession(t.Context(), key)
	checkStatus(t, err, codes.ResourceExhausted, "RESPONSE_TOO_LARGE", "read it in pages with page_size")

	req := proto.CloneOf(key)
	req.PageSize = 100
	got, sizes := readPages(t, r, req)
	if len(got) != 6 || len(sizes) < 2 {
		t.Errorf("read %d events in %d pages, want 6 in several", len(got), len(sizes))
	}
}

func TestGetSessionPagesOverREST(t *testing.T) {
	t.Parallel()
	store := memory.New()
	r := newReplica(t, store, server.Config{})
	sid := filledSession(t, store, 10, 10, 10, 10, 10)
	get := func(query url.Values) (*v1.Session, string) {
		t.Helper()
		req := httptest.NewRequestWithContext(t.Context(), "GET",
			"http://127.0.0.1/apps/"+appName+"/users/"+userID+"/sessions/"+sid+"?"+query.Encode(), nil)
		w := httptest.NewRecorder()
		r.http.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			t.Fatalf("GET ?%s: %d %s", query.Encode(), w.Code, w.Body)
		}
		sess := &v1.Session{}
		if err := protojson.Unmarshal(w.Body.Bytes(), sess); err != nil {
			t.Fatalf("the body is not a bare Session: %v: %s", err, w.Body)
		}
		return sess, w.Header().Get("Grpc-Metadata-Next-Page-Token")
	}
	var authors []string
	q := url.Values{"page_size": {"2"}}
	for range 10 {
		sess, next := get(q)
		for _, ev := range sess.Events {
			authors = append(authors, ev.Author)
		}
		if next == "" {
			break
		}
		q.Set("page_token", next)
	}
	if fmt.Sprint(authors) != "[a0 a1 a2 a3 a4]" {
		t.Errorf("events over REST pages = %v", authors)
	}
}
