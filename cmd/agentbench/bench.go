package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/loadclient"
)

// bench runs the load of one command line.
type bench struct {
	o     *options
	conns []*grpc.ClientConn
	// tickets counts the invocations started, against --count.
	tickets atomic.Int64
	// waiting counts the Connect streams whose tool call is being held.
	waiting atomic.Int64
	// decl is the tool a Connect client declares.
	decl *api.ToolDeclaration
	// rest is the client of rest mode, which has no gRPC connection.
	rest *restClient
}

func newBench(o *options) (*bench, error) {
	b := &bench{o: o, decl: &api.ToolDeclaration{
		Name:        o.tool,
		Description: "Returns the weather of a city.",
		Parameters: &structpb.Struct{Fields: map[string]*structpb.Value{
			"type": structpb.NewStringValue("object"),
		}},
		LongRunning: true,
	}}
	if o.mode == "rest" {
		b.rest = newRESTClient(o)
		return b, nil
	}
	for range o.conns {
		conn, err := grpc.NewClient(o.addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			b.close()
			return nil, fmt.Errorf("dial %s: %w", o.addr, err)
		}
		b.conns = append(b.conns, conn)
	}
	return b, nil
}

func (b *bench) close() {
	for _, c := range b.conns {
		c.Close()
	}
	if b.rest != nil {
		b.rest.close()
	}
}

// conn returns the gRPC connection of worker i; nil in rest mode.
func (b *bench) conn(i int) *grpc.ClientConn {
	if len(b.conns) == 0 {
		return nil
	}
	return b.conns[i%len(b.conns)]
}

// take reports whether a worker may start another invocation.
func (b *bench) take(ctx context.Context, deadline time.Time) bool {
	if ctx.Err() != nil {
		return false
	}
	if b.o.count > 0 {
		return b.tickets.Add(1) <= int64(b.o.count)
	}
	return time.Now().Before(deadline)
}

// run puts the load on the server and gathers the result. In duration
// mode, invocations running at the deadline finish and are counted.
func (b *bench) run(ctx context.Context) (*result, error) {
	if err := b.check(ctx); err != nil {
		return nil, err
	}
	var sampler *serverSampler
	if b.o.serverPID > 0 {
		var err error
		if sampler, err = startServerSampler(b.o.serverPID, &b.waiting); err != nil {
			return nil, err
		}
	}
	start := time.Now()
	deadline := start.Add(b.o.duration)
	workers := make([]*workerStats, b.o.concurrency)
	var wg sync.WaitGroup
	for i := range workers {
		w := &workerStats{}
		workers[i] = w
		conn := b.conn(i)
		wg.Go(func() { b.work(ctx, conn, w, deadline) })
	}
	wg.Wait()
	res := gather(workers, time.Since(start))
	if sampler != nil {
		res.server = sampler.stop()
	}
	return res, nil
}

// check makes one session to fail fast on a wrong address or app.
func (b *bench) check(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := b.newSession(ctx, b.conn(0)); err != nil {
		return fmt.Errorf("create a session of app %q at %s: %w", b.o.app, b.o.target(), err)
	}
	return nil
}

func (b *bench) newSession(ctx context.Context, conn *grpc.ClientConn) (string, error) {
	if b.rest != nil {
		return b.rest.newSession(ctx)
	}
	resp, err := api.NewSessionServiceClient(conn).CreateSession(ctx, &api.CreateSessionRequest{AppName: b.o.app, UserId: b.o.user})
	if err != nil {
		return "", err
	}
	return resp.GetSession().GetId(), nil
}

// work runs invocations one after another until the count or the deadline
// is reached, starting a new session every --turns invocations.
func (b *bench) work(ctx context.Context, conn *grpc.ClientConn, w *workerStats, deadline time.Time) {
	runner := api.NewRunnerServiceClient(conn)
	var sid string
	turns := 0
	for b.take(ctx, deadline) {
		if sid == "" || turns == b.o.turns {
			var err error
			if sid, err = b.newSession(ctx, conn); err != nil {
				w.fail(err)
				continue
			}
			turns = 0
		}
		turns++
		t0 := time.Now()
		var err error
		switch b.o.mode {
		case "connect":
			var called bool
			called, err = b.connectOnce(ctx, runner, sid)
			if err == nil && !called {
				w.noToolCall++
			}
		case "rest":
			err = b.rest.run(ctx, sid)
		default:
			err = b.runOnce(ctx, runner, sid)
		}
		if err != nil {
			w.fail(err)
			// A failed invocation may leave its session busy for a moment.
			sid = ""
			continue
		}
		w.latencies = append(w.latencies, time.Since(t0))
	}
}

func (b *bench) request(sid string) *api.RunRequest {
	return &api.RunRequest{AppName: b.o.app, UserId: b.o.user, SessionId: sid,
		NewMessage: &v1.Content{Role: "user", Parts: []*v1.Part{{Text: b.o.text}}}}
}

// runOnce runs one invocation with Run and reads every event.
func (b *bench) runOnce(ctx context.Context, runner api.RunnerServiceClient, sid string) error {
	stream, err := runner.Run(ctx, b.request(sid))
	if err != nil {
		return err
	}
	for {
		if _, err := stream.Recv(); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// connectOnce runs one invocation with Connect: it holds each tool call for
// --connect-hold, answers it with an empty result, and reads up to done and
// the end of the stream. It reports whether a tool call came.
func (b *bench) connectOnce(ctx context.Context, runner api.RunnerServiceClient, sid string) (bool, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := runner.Connect(ctx)
	if err != nil {
		return false, err
	}
	start := &api.ConnectRequest{Kind: &api.ConnectRequest_Start{Start: &api.StartRun{Run: b.request(sid), Tools: []*api.ToolDeclaration{b.decl}}}}
	if err := stream.Send(start); err != nil {
		return false, loadclient.RecvStatus(stream, err)
	}
	called, done := false, false
	for {
		m, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			if !done {
				return called, loadclient.ErrNoDone
			}
			return called, nil
		}
		if err != nil {
			return called, err
		}
		switch {
		case m.GetToolCall() != nil:
			called = true
			if err := b.hold(ctx); err != nil {
				return called, err
			}
			result := &api.ConnectRequest{Kind: &api.ConnectRequest_ToolResult{ToolResult: &api.ToolResult{CallId: m.GetToolCall().GetCallId()}}}
			if err := stream.Send(result); err != nil {
				return called, loadclient.RecvStatus(stream, err)
			}
		case m.GetDone() != nil:
			done = true
			_ = stream.CloseSend()
		}
	}
}

// hold keeps a tool call waiting for --connect-hold.
func (b *bench) hold(ctx context.Context) error {
	b.waiting.Add(1)
	defer b.waiting.Add(-1)
	if b.o.hold <= 0 {
		return nil
	}
	t := time.NewTimer(b.o.hold)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
