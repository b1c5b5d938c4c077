package server

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"hash/fnv"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// listTokenVersion starts every ListSessions page token; it differs from
// pageTokenVersion so that a GetSession token is never taken for one.
const listTokenVersion = 0x81

// listFingerprint identifies the listing a token belongs to: the user's
// sessions of the app. page_size may change between pages.
func listFingerprint(app, user string) uint64 {
	h := fnv.New64a()
	for _, s := range []string{"list", app, user} {
		_, _ = h.Write([]byte(s))
		_, _ = h.Write([]byte{0})
	}
	return h.Sum64()
}

// encodeListToken is an opaque token for cur within the listing fp names.
func encodeListToken(cur sessions.ListCursor, fp uint64) string {
	b := make([]byte, 0, 1+binary.MaxVarintLen64+8+len(cur.ID))
	b = append(b, listTokenVersion)
	b = binary.AppendVarint(b, cur.Created)
	b = binary.BigEndian.AppendUint64(b, fp)
	b = append(b, cur.ID...)
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeListToken reads a token of encodeListToken, rejecting one that is
// malformed or belongs to another listing.
func decodeListToken(tok string, fp uint64) (sessions.ListCursor, error) {
	bad := invalid("page_token is not a valid token for this request")
	if len(tok) > 2*maxIDLength {
		return sessions.ListCursor{}, bad
	}
	b, err := base64.RawURLEncoding.DecodeString(tok)
	if err != nil || len(b) < 1 || b[0] != listTokenVersion {
		return sessions.ListCursor{}, bad
	}
	created, n := binary.Varint(b[1:])
	if n <= 0 {
		return sessions.ListCursor{}, bad
	}
	rest := b[1+n:]
	if len(rest) <= 8 || binary.BigEndian.Uint64(rest) != fp {
		return sessions.ListCursor{}, bad
	}
	cur := sessions.ListCursor{Created: created, ID: string(rest[8:])}
	if validateOptionalID("page_token", cur.ID) != nil || encodeListToken(cur, fp) != tok {
		return sessions.ListCursor{}, bad
	}
	return cur, nil
}

// listSessionsPage answers a ListSessions that asks for a page.
func (s *Server) listSessionsPage(ctx context.Context, req *api.ListSessionsRequest) (*api.ListSessionsResponse, error) {
	fp := listFingerprint(req.GetAppName(), req.GetUserId())
	var after sessions.ListCursor
	if tok := req.GetPageToken(); tok != "" {
		var err error
		if after, err = decodeListToken(tok, fp); err != nil {
			return nil, err
		}
	}
	size := int(req.GetPageSize())
	if size == 0 {
		size = defaultPageSize
	}
	size = min(size, maxPageSize)
	for {
		list, next, err := s.sessions.ListPage(ctx, req.GetAppName(), req.GetUserId(), sessions.ListPageRequest{After: after, Size: size})
		if err != nil {
			return nil, toStatus(ctx, s.log, err)
		}
		resp := &api.ListSessionsResponse{Sessions: list}
		if !next.Start() {
			resp.NextPageToken = encodeListToken(next, fp)
		}
		n := proto.Size(resp)
		if n <= s.pageBytes || len(list) <= 1 {
			if err := s.checkListSize(n); err != nil {
				return nil, err
			}
			if resp.NextPageToken != "" {
				_ = grpc.SetHeader(ctx, metadata.Pairs(nextPageTokenHeader, resp.NextPageToken))
			}
			return resp, nil
		}
		// Sessions with large states: read a page that fits.
		size = max(1, min(len(list)-1, len(list)*s.pageBytes/n))
	}
}

// checkListSize refuses a ListSessions answer of n bytes that the
// transport could not send.
func (s *Server) checkListSize(n int) error {
	if n > s.maxResponseBytes {
		return statusError(codes.ResourceExhausted, v1.ErrorReason_RESPONSE_TOO_LARGE.String(), fmt.Sprintf(
			"the sessions (%d bytes) are more than the %d bytes a response may carry; list them in pages with page_size and page_token",
			n, s.maxResponseBytes))
	}
	return nil
}
