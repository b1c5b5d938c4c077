package server

import (
	"testing"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// FuzzDecodePageToken feeds arbitrary page tokens to the decoder: it never
// panics, and a token it accepts names a non-empty range and encodes back to
// itself.
func FuzzDecodePageToken(f *testing.F) {
	req := &api.GetSessionRequest{AppName: "app", UserId: "u", SessionId: "s", NumRecentEvents: 10}
	fp := pageFingerprint(req)
	f.Add(encodePageToken(sessions.Cursor{Next: 3, End: 10}, fp))
	f.Add(encodePageToken(sessions.Cursor{Next: 0, End: 1 << 20}, fp))
	f.Add(encodePageToken(sessions.Cursor{Next: 3, End: 10}, fp+1))
	f.Add("")
	f.Add("AQ")
	f.Add("not a token")
	f.Fuzz(func(t *testing.T, tok string) {
		cur, err := decodePageToken(tok, fp)
		if err != nil {
			return
		}
		if cur.Next < 0 || cur.Next >= cur.End {
			t.Fatalf("accepted %q as the empty or negative range %+v", tok, cur)
		}
		if again := encodePageToken(cur, fp); again != tok {
			t.Fatalf("accepted %q, which encodes back as %q", tok, again)
		}
	})
}

// FuzzDecodeListToken feeds arbitrary ListSessions page tokens to the
// decoder: it never panics, and a token it accepts names a valid session id
// and encodes back to itself.
func FuzzDecodeListToken(f *testing.F) {
	fp := listFingerprint("app", "u")
	f.Add(encodeListToken(sessions.ListCursor{Created: 1_700_000_000_000_000, ID: "s1"}, fp))
	f.Add(encodeListToken(sessions.ListCursor{Created: -1, ID: "x"}, fp))
	f.Add(encodeListToken(sessions.ListCursor{Created: 5, ID: "s1"}, fp+1))
	f.Add("")
	f.Add("gQ")
	f.Fuzz(func(t *testing.T, tok string) {
		cur, err := decodeListToken(tok, fp)
		if err != nil {
			return
		}
		if cur.ID == "" || validateOptionalID("id", cur.ID) != nil {
			t.Fatalf("accepted %q with the id %q", tok, cur.ID)
		}
		if again := encodeListToken(cur, fp); again != tok {
			t.Fatalf("accepted %q, which encodes back as %q", tok, again)
		}
	})
}
