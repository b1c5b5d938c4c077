package mcp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Server is the client side of one MCP server: a session opened on first
// use, shared by every call, and opened again when it dies. Its tool list
// is kept until the server announces a change or the session ends.
type Server struct {
	params Params
	log    *slog.Logger

	mu     sync.Mutex
	sess   *mcp.ClientSession
	stop   context.CancelFunc // ends the session's context
	tools  []*mcp.Tool        // nil: not listed on this session yet
	closed bool
}

// NewServer returns the client of the server the params reach; nothing
// connects until a tool is listed or called.
func NewServer(p Params, log *slog.Logger) *Server {
	if log == nil {
		log = slog.Default()
	}
	return &Server{params: p, log: log.With("mcp_server", p.String())}
}

// Params returns the server's connection parameters.
func (s *Server) Params() Params { return s.params }

// errClosed is returned once the server is closed.
var errClosed = errors.New("the MCP client is closed")

// session returns the live session, connecting when there is none.
func (s *Server) session(ctx context.Context) (*mcp.ClientSession, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errClosed
	}
	if s.sess != nil {
		return s.sess, nil
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "agentsvc", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { s.forgetTools() },
	})
	t, err := s.params.transport(func(line string) { s.log.Debug("mcp server stderr", "line", line) })
	if err != nil {
		return nil, err
	}
	sess, stop, err := connect(ctx, client, t, orDefault(s.params.Timeout, DefaultTimeout))
	if err != nil {
		return nil, &connectError{err: err}
	}
	s.sess, s.stop, s.tools = sess, stop, nil
	s.log.Debug("mcp session opened", "session_id", sess.ID())
	go func() {
		err := sess.Wait()
		s.drop(sess)
		s.log.Debug("mcp session ended", "err", err)
	}()
	return sess, nil
}

// drop forgets a session that ended or broke, so the next use opens
// another; it closes it (stopping a stdio server) if it still runs.
func (s *Server) drop(sess *mcp.ClientSession) {
	s.mu.Lock()
	mine := s.sess == sess
	stop := s.stop
	if mine {
		s.sess, s.stop, s.tools = nil, nil, nil
	}
	s.mu.Unlock()
	if mine {
		_ = sess.Close()
		stop()
	}
}

func (s *Server) forgetTools() {
	s.mu.Lock()
	s.tools = nil
	s.mu.Unlock()
}

// Tools lists the server's tools, from the session's cache when listed
// already. A failure is retried once on a fresh session, as ADK retries.
func (s *Server) Tools(ctx context.Context) ([]*mcp.Tool, error) {
	var list []*mcp.Tool
	err := s.retry(ctx, func(ctx context.Context, sess *mcp.ClientSession) error {
		s.mu.Lock()
		cached := s.tools
		s.mu.Unlock()
		if cached != nil {
			list = cached
			return nil
		}
		lctx, cancel := context.WithTimeout(ctx, orDefault(s.params.Timeout, DefaultTimeout))
		defer cancel()
		var out []*mcp.Tool
		for t, err := range sess.Tools(lctx, nil) {
			if err != nil {
				return err
			}
			out = append(out, t)
		}
		if out == nil {
			out = []*mcp.Tool{}
		}
		s.mu.Lock()
		if s.sess == sess {
			s.tools = out
		}
		s.mu.Unlock()
		list = out
		return nil
	})
	return list, err
}

// Call calls a tool, bounded by the call timeout; a failure of the session
// (not an error answer of the server) is retried once on a fresh session,
// as ADK retries.
func (s *Server) Call(ctx context.Context, name string, args map[string]any) (*mcp.CallToolResult, error) {
	var res *mcp.CallToolResult
	err := s.retry(ctx, func(ctx context.Context, sess *mcp.ClientSession) error {
		cctx, cancel := context.WithTimeout(ctx, s.params.callTimeout())
		defer cancel()
		r, err := sess.CallTool(cctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil && cctx.Err() != nil && ctx.Err() == nil {
			return &timeoutError{after: s.params.callTimeout()}
		}
		res = r
		return err
	})
	return res, err
}

// retry runs fn on the session and, when it fails for another reason than
// the caller's end, once more; a session that broke is replaced first.
func (s *Server) retry(ctx context.Context, fn func(context.Context, *mcp.ClientSession) error) error {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		var sess *mcp.ClientSession
		if sess, err = s.session(ctx); err == nil {
			if err = fn(ctx, sess); err == nil {
				return nil
			}
			if broken(err) {
				s.drop(sess)
			}
		}
		if ctx.Err() != nil || errors.Is(err, errClosed) {
			return err
		}
		s.log.Warn("mcp request failed; retrying once", "err", err)
	}
	return err
}

// broken reports an error that leaves the session unusable: the
// connection failed, rather than the server answering with an error or
// being slow.
func broken(err error) bool {
	var wire *mcpWireError
	var timeout *timeoutError
	return !errors.As(err, &wire) && !errors.As(err, &timeout)
}

// Close ends the session (stopping a stdio server); later calls fail.
func (s *Server) Close() error {
	s.mu.Lock()
	sess, stop := s.sess, s.stop
	s.sess, s.stop, s.closed = nil, nil, true
	s.mu.Unlock()
	if sess == nil {
		return nil
	}
	err := sess.Close()
	stop()
	return err
}

// connect opens a session within the timeout. The session's context
// outlives the call (an SSE stream lives as long as it) and is not the
// caller's, whose end must not end a session others share; stop ends it.
func connect(ctx context.Context, client *mcp.Client, t mcp.Transport, timeout time.Duration) (*mcp.ClientSession, context.CancelFunc, error) {
	life, stop := context.WithCancel(context.WithoutCancel(ctx))
	timer := time.AfterFunc(timeout, stop)
	sess, err := client.Connect(life, t, nil)
	if !timer.Stop() && err == nil {
		err = context.DeadlineExceeded
		_ = sess.Close()
	}
	if err != nil {
		stop()
		if life.Err() != nil {
			err = fmt.Errorf("%w after %v", context.DeadlineExceeded, timeout)
		}
		return nil, nil, err
	}
	return sess, stop, nil
}
