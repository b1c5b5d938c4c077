package server

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// Page sizes of GetSession, in events; [Config.PageBytes] bounds a page's
// bytes.
const (
	// defaultPageSize applies to a page_token sent without page_size.
	defaultPageSize = 100
	// maxPageSize caps page_size; larger values are served as this.
	maxPageSize = 1000
)

// nextPageTokenHeader carries next_page_token in response metadata too,
// which REST clients read as the Grpc-Metadata-Next-Page-Token header since
// the REST body is a bare Session.
const nextPageTokenHeader = "next-page-token"

// pageTokenVersion starts every page token, so that its format can change.
const pageTokenVersion = 1

// pageFingerprint identifies the listing a token belongs to: the session and
// the selection of events. page_size may change between pages.
func pageFingerprint(req *api.GetSessionRequest) uint64 {
	h := fnv.New64a()
	for _, s := range []string{req.GetAppName(), req.GetUserId(), req.GetSessionId()} {
		_, _ = h.Write([]byte(s))
		_, _ = h.Write([]byte{0})
	}
	var b [12]byte
	binary.BigEndian.PutUint32(b[:4], uint32(req.GetNumRecentEvents()))
	binary.BigEndian.PutUint64(b[4:], math.Float64bits(req.GetAfterTimestamp()))
	_, _ = h.Write(b[:])
	return h.Sum64()
}

// encodePageToken is an opaque token for cur within the listing fp names.
func encodePageToken(cur sessions.Cursor, fp uint64) string {
	b := make([]byte, 0, 1+2*binary.MaxVarintLen64+8)
	b = append(b, pageTokenVersion)
	b = binary.AppendUvarint(b, uint64(cur.Next))
	b = binary.AppendUvarint(b, uint64(cur.End))
	b = binary.BigEndian.AppendUint64(b, fp)
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodePageToken reads a token of encodePageToken, rejecting one that is
// malformed or belongs to another listing.
func decodePageToken(tok string, fp uint64) (sessions.Cursor, error) {
	bad := invalid("page_token is not a valid token for this request")
	b, err := base64.RawURLEncoding.DecodeString(tok)
	if err != nil || len(b) < 1+8 || b[0] != pageTokenVersion {
		return sessions.Cursor{}, bad
	}
	rest := b[1:]
	next, n := binary.Uvarint(rest)
	if n <= 0 {
		return sessions.Cursor{}, bad
	}
	rest = rest[n:]
	end, n := binary.Uvarint(rest)
	if n <= 0 {
		return sessions.Cursor{}, bad
	}
	rest = rest[n:]
	if len(rest) != 8 || binary.BigEndian.Uint64(rest) != fp || next >= end || end > math.MaxInt32 {
		return sessions.Cursor{}, bad
	}
	cur := sessions.Cursor{Next: int(next), End: int(end)}
	// One token per position: no other spelling of it is accepted.
	if encodePageToken(cur, fp) != tok {
		return sessions.Cursor{}, bad
	}
	return cur, nil
}

// getSessionPage answers a GetSession that asks for a page.
func (s *Server) getSessionPage(ctx context.Context, req *api.GetSessionRequest, greq sessions.GetRequest) (*api.GetSessionResponse, error) {
	fp := pageFingerprint(req)
	var cur sessions.Cursor
	if tok := req.GetPageToken(); tok != "" {
		var err error
		if cur, err = decodePageToken(tok, fp); err != nil {
			return nil, err
		}
	}
	size := int(req.GetPageSize())
	if size == 0 {
		size = defaultPageSize
	}
	size = min(size, maxPageSize)
	// The budget is for the events; the state and the envelope count too,
	// so a response over the limit is read again with a smaller budget.
	budget := s.pageBytes
	for {
		sess, next, err := s.sessions.GetPage(ctx, greq, sessions.PageRequest{Cursor: cur, Size: size, MaxBytes: max(budget, 1)})
		if err != nil {
			return nil, toStatus(ctx, s.log, err)
		}
		resp := &api.GetSessionResponse{Session: sess}
		if !next.Done() {
			resp.NextPageToken = encodePageToken(next, fp)
		}
		over := proto.Size(resp) - s.pageBytes
		if over <= 0 || len(sess.GetEvents()) <= 1 || budget <= 1 {
			if resp.NextPageToken != "" {
				_ = grpc.SetHeader(ctx, metadata.Pairs(nextPageTokenHeader, resp.NextPageToken))
			}
			return resp, nil
		}
		budget -= over
	}
}

// checkResponseSize refuses a whole-session answer the transport could not
// send, telling the caller to page instead.
func (s *Server) checkResponseSize(resp *api.GetSessionResponse) error {
	if n := proto.Size(resp); n > s.maxResponseBytes {
		return statusError(codes.ResourceExhausted, v1.ErrorReason_RESPONSE_TOO_LARGE.String(), fmt.Sprintf(
			"the session (%d bytes) is larger than the %d bytes a response may carry; read it in pages with page_size and page_token",
			n, s.maxResponseBytes))
	}
	return nil
}
