package integration

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	goredis "github.com/redis/go-redis/v9"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"

	"github.com/agentsvc/agentsvc/examples"
	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
)

// testRedisURLEnv names the variable scripts/with-redis.sh sets to the URL of
// the shared test server.
const testRedisURLEnv = "AGENTSVC_TEST_REDIS"

// exampleApps returns the bundled example app, as served without --agents.
func exampleApps(t *testing.T) map[string]string {
	t.Helper()
	yaml, err := examples.FS.ReadFile("assistant/root_agent.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return map[string]string{"assistant": string(yaml)}
}

// redisProcess is a redis-server owned by one test, with an append-only file
// synced on every write, so that what it acknowledged survives a SIGKILL and
// a restart on the same port and directory.
type redisProcess struct {
	t        *testing.T
	port     int
	dir      string
	cmd      *exec.Cmd
	exitedCh chan struct{}
}

// startRedisProcess starts a private redis-server on a free loopback port.
// Without redis-server on PATH the test skips, or fails when CI is set.
func startRedisProcess(t *testing.T) *redisProcess {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("redis-server is not on PATH: %v", err)
		}
		t.Skipf("redis-server is not on PATH: %v", err)
	}
	r := &redisProcess{t: t, dir: t.TempDir()}
	t.Cleanup(r.kill)
	// A port found free can be taken before redis-server binds it.
	var err error
	for range 3 {
		if r.port, err = freeLoopbackPort(); err != nil {
			t.Fatal(err)
		}
		if err = r.start(); err == nil {
			return r
		}
	}
	t.Fatal(err)
	return nil
}

func freeLoopbackPort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func (r *redisProcess) url() string {
	return fmt.Sprintf("redis://127.0.0.1:%d/0", r.port)
}

// start runs redis-server on r's port and directory and waits until it
// answers PING.
func (r *redisProcess) start() error {
	logPath := filepath.Join(r.dir, "redis.log")
	cmd := exec.Command("redis-server",
		"--port", strconv.Itoa(r.port), "--bind", "127.0.0.1", "--dir", r.dir, "--logfile", logPath,
		"--save", "", "--appendonly", "yes", "--appendfsync", "always")
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start redis-server: %w", err)
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	probe := goredis.NewClient(&goredis.Options{Addr: fmt.Sprintf("127.0.0.1:%d", r.port), DisableIdentity: true, MaxRetries: -1})
	defer probe.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := probe.Ping(ctx).Err()
		cancel()
		if err == nil {
			r.cmd = cmd
			r.exitedCh = exited
			return nil
		}
		select {
		case <-exited:
			log, _ := os.ReadFile(logPath)
			return fmt.Errorf("redis-server on port %d exited; log:\n%s", r.port, log)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			<-exited
			log, _ := os.ReadFile(logPath)
			return fmt.Errorf("redis-server on port %d did not answer PING; log:\n%s", r.port, log)
		}
	}
}

// restart starts the server again on the same port and data.
func (r *redisProcess) restart() {
	r.t.Helper()
	if err := r.start(); err != nil {
		r.t.Fatal(err)
	}
}

// kill stops the server with SIGKILL, as a crash would, and waits for it.
func (r *redisProcess) kill() {
	if r.cmd == nil {
		return
	}
	_ = r.cmd.Process.Kill()
	<-r.exitedCh
	r.cmd, r.exitedCh = nil, nil
}

// setModelLatency makes the stack's fake Gemini server wait d before every
// answer.
func (s *stack) setModelLatency(t *testing.T, d time.Duration) {
	t.Helper()
	body := fmt.Sprintf(`{"latency":%q}`, d.String())
	resp, err := http.Post(s.fakeURL+"/_fake/faults", "application/json", bytes.NewReader([]byte(body)))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("set model latency: %s", resp.Status)
	}
}

// runText runs one user text on a session and returns the streamed events,
// or the status error that ended the call.
func runText(ctx context.Context, conn *grpc.ClientConn, userID, sessionID, text string) ([]*v1.Event, error) {
	return runEvents(ctx, conn, &api.RunRequest{
		AppName: "assistant", UserId: userID, SessionId: sessionID,
		NewMessage: &v1.Content{Role: "user", Parts: []*v1.Part{{Text: text}}},
	})
}

// runEvents calls Run and returns the streamed events, or the status error
// that ended the call.
func runEvents(ctx context.Context, conn *grpc.ClientConn, req *api.RunRequest) ([]*v1.Event, error) {
	stream, err := api.NewRunnerServiceClient(conn).Run(ctx, req)
	if err != nil {
		return nil, err
	}
	var events []*v1.Event
	for {
		resp, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return events, nil
		}
		if err != nil {
			return events, err
		}
		events = append(events, resp.Event)
	}
}

// mustRunText runs text and checks that the one answer is the fake model's
// echo of it.
func mustRunText(t *testing.T, ctx context.Context, conn *grpc.ClientConn, userID, sessionID, text string) *v1.Event {
	t.Helper()
	events, err := runText(ctx, conn, userID, sessionID, text)
	if err != nil {
		t.Fatalf("Run %q: %v", text, err)
	}
	if len(events) != 1 || events[0].GetContent().GetParts()[0].GetText() != "Echo: "+text {
		t.Fatalf("Run %q answered %v, want one event \"Echo: %s\"", text, events, text)
	}
	return events[0]
}

// statusReason returns the ErrorInfo reason of a status error, if any.
func statusReason(err error) string {
	for _, d := range status.Convert(err).Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok {
			return info.Reason
		}
	}
	return ""
}

// turn is one expected user message of a session's history and whether the
// model's answer to it was stored.
type turn struct {
	text     string
	answered bool
}

// checkHistory checks that every stored event is whole (complete, not
// partial, and surviving a JSON round trip unchanged) and that the events
// are the user messages of turns in order, each followed by the model's
// answer from the same invocation when the turn was answered.
func checkHistory(t *testing.T, sess *v1.Session, turns []turn) {
	t.Helper()
	for i, ev := range sess.GetEvents() {
		if ev.GetPartial() || ev.GetId() == "" || ev.GetAuthor() == "" || ev.GetInvocationId() == "" ||
			ev.GetTimestamp() <= 0 || len(ev.GetContent().GetParts()) == 0 {
			t.Errorf("session %s, event %d is not whole: %v", sess.GetId(), i, ev)
			continue
		}
		b, err := protojson.Marshal(ev)
		if err != nil {
			t.Errorf("session %s, event %d: encode: %v", sess.GetId(), i, err)
			continue
		}
		back := new(v1.Event)
		if err := protojson.Unmarshal(b, back); err != nil {
			t.Errorf("session %s, event %d: parse %s: %v", sess.GetId(), i, b, err)
		} else if diff := cmp.Diff(ev, back, protocmp.Transform()); diff != "" {
			t.Errorf("session %s, event %d changed in a JSON round trip (-stored +parsed):\n%s", sess.GetId(), i, diff)
		}
	}

	var want, got []string
	for _, tu := range turns {
		want = append(want, "user: "+tu.text)
		if tu.answered {
			want = append(want, "assistant: Echo: "+tu.text)
		}
	}
	var userInvocation string
	for _, ev := range sess.GetEvents() {
		got = append(got, ev.GetAuthor()+": "+ev.GetContent().GetParts()[0].GetText())
		switch {
		case ev.GetAuthor() == "user":
			userInvocation = ev.GetInvocationId()
		case ev.GetInvocationId() != userInvocation:
			t.Errorf("session %s: answer %q belongs to invocation %s, the user message before it to %s",
				sess.GetId(), ev.GetContent().GetParts()[0].GetText(), ev.GetInvocationId(), userInvocation)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("session %s history (-want +got):\n%s", sess.GetId(), diff)
	}
}

func getSession(t *testing.T, ctx context.Context, conn *grpc.ClientConn, userID, sessionID string) *v1.Session {
	t.Helper()
	resp, err := api.NewSessionServiceClient(conn).GetSession(ctx, &api.GetSessionRequest{AppName: "assistant", UserId: userID, SessionId: sessionID})
	if err != nil {
		t.Fatalf("GetSession %s: %v", sessionID, err)
	}
	return resp.Session
}

func createSession(t *testing.T, ctx context.Context, conn *grpc.ClientConn, userID string) string {
	t.Helper()
	resp, err := api.NewSessionServiceClient(conn).CreateSession(ctx, &api.CreateSessionRequest{AppName: "assistant", UserId: userID})
	if err != nil {
		t.Fatalf("CreateSession: %v", err)
	}
	return resp.Session.Id
}

// TestRedisKilledMidRun kills Redis while an invocation waits on the model:
// the Run fails with UNAVAILABLE, and once Redis is back on the same port the
// same agentsvc process serves new and existing sessions, whose histories
// hold only whole events.
func TestRedisKilledMidRun(t *testing.T) {
	t.Parallel()
	redis := startRedisProcess(t)
	s := startStack(t, exampleApps(t), "--sessions", redis.url())
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	sessions := api.NewSessionServiceClient(s.conn)

	idle := createSession(t, ctx, s.conn, "u")
	mustRunText(t, ctx, s.conn, "u", idle, "first question")
	interrupted := createSession(t, ctx, s.conn, "u")
	mustRunText(t, ctx, s.conn, "u", interrupted, "before the crash")

	// The latency keeps the invocation waiting on the model, its user
	// message stored and its lease held, while Redis dies; it only has to
	// outlast the kill below, which follows the model request at once.
	s.setModelLatency(t, 3*time.Second)
	type result struct {
		events []*v1.Event
		err    error
	}
	done := make(chan result, 1)
	go func() {
		events, err := runText(ctx, s.conn, "u", interrupted, "during the crash")
		done <- result{events, err}
	}()
	waitUntil(t, func() bool { return len(s.modelRequests(t)) == 3 })
	select {
	case r := <-done:
		t.Fatalf("the invocation ended before Redis was killed: %v, %v", r.events, r.err)
	default:
	}
	redis.kill()

	r := <-done
	if status.Code(r.err) != codes.Unavailable || statusReason(r.err) != "SESSION_STORE_UNAVAILABLE" {
		t.Errorf("Run while Redis is down = %v (reason %q), want UNAVAILABLE (SESSION_STORE_UNAVAILABLE)", r.err, statusReason(r.err))
	}
	if len(r.events) != 0 {
		t.Errorf("Run while Redis is down sent %d events, want none: the answer was never stored", len(r.events))
	}
	_, err := sessions.CreateSession(ctx, &api.CreateSessionRequest{AppName: "assistant", UserId: "u"})
	if status.Code(err) != codes.Unavailable {
		t.Errorf("CreateSession while Redis is down = %v, want UNAVAILABLE", err)
	}
	_, err = sessions.GetSession(ctx, &api.GetSessionRequest{AppName: "assistant", UserId: "u", SessionId: idle})
	if status.Code(err) != codes.Unavailable {
		t.Errorf("GetSession while Redis is down = %v, want UNAVAILABLE", err)
	}

	redis.restart()
	restarted := time.Now()
	s.setModelLatency(t, 0)
	// The store reconnects on its own; until its pool has dialled the new
	// server, calls may still fail with UNAVAILABLE, and with nothing else.
	var fresh string
	deadline := time.Now().Add(20 * time.Second)
	for fresh == "" {
		resp, err := sessions.CreateSession(ctx, &api.CreateSessionRequest{AppName: "assistant", UserId: "u"})
		switch {
		case err == nil:
			fresh = resp.Session.Id
		case status.Code(err) != codes.Unavailable:
			t.Fatalf("CreateSession after the restart: %v", err)
		case time.Now().After(deadline):
			t.Fatalf("CreateSession still fails 20s after the restart: %v", err)
		default:
			time.Sleep(50 * time.Millisecond)
		}
	}
	t.Logf("agentsvc created a session %v after Redis restarted", time.Since(restarted).Round(time.Millisecond))
	mustRunText(t, ctx, s.conn, "u", fresh, "after the restart")
	mustRunText(t, ctx, s.conn, "u", idle, "second question")

	checkHistory(t, getSession(t, ctx, s.conn, "u", fresh), []turn{{"after the restart", true}})
	checkHistory(t, getSession(t, ctx, s.conn, "u", idle), []turn{{"first question", true}, {"second question", true}})
	// The interrupted invocation stored its user message before the model
	// call; its answer never reached the store.
	checkHistory(t, getSession(t, ctx, s.conn, "u", interrupted), []turn{{"before the crash", true}, {"during the crash", false}})
}

// sharedRedisURL returns the URL of the test Redis shared by the replicas.
// Without one the test skips, except in CI, where it fails.
func sharedRedisURL(t *testing.T) string {
	t.Helper()
	return sharedStoreURL(t, testRedisURLEnv, "scripts/with-redis.sh")
}

// sharedStoreURL returns the URL in the variable env, which script sets.
// Without one the test skips, except in CI, where it fails.
func sharedStoreURL(t *testing.T, env, script string) string {
	t.Helper()
	url := os.Getenv(env)
	if url == "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not set; CI runs the Redis tests against a real server (%s)", env, script)
		}
		t.Skipf("%s is not set; run under %s", env, script)
	}
	return url
}

// TestReplicasShareRedisSessions runs two agentsvc replicas on one Redis: a
// session created through one is read and continued through the other, and
// two concurrent invocations on one session through both replicas are
// serialized by the session's lease.
func TestReplicasShareRedisSessions(t *testing.T) {
	t.Parallel()
	forEachSharedRedis(t, replicasShareRedisSessions)
}

func replicasShareRedisSessions(t *testing.T, url string) {
	a := startStack(t, exampleApps(t), "--sessions", url)
	b := startStack(t, exampleApps(t), "--sessions", url)
	if a.grpcAddr == b.grpcAddr {
		t.Fatalf("both replicas serve %s", a.grpcAddr)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	// Other tests may share the server: this test's sessions have a user
	// of their own, and are deleted afterwards.
	user := "replicas-" + randomHex(t)
	sid := createSession(t, ctx, a.conn, user)
	deleteSessionAfter(t, a, "assistant", user, sid)

	answerA := mustRunText(t, ctx, a.conn, user, sid, "hello through A")
	viaB := getSession(t, ctx, b.conn, user, sid)
	checkHistory(t, viaB, []turn{{"hello through A", true}})
	if n := len(viaB.Events); n != 2 || viaB.Events[1].Id != answerA.Id {
		t.Errorf("replica B sees %d events, last %v; want A's answer %s last", n, viaB.Events[n-1], answerA.Id)
	}
	listed, err := api.NewSessionServiceClient(b.conn).ListSessions(ctx, &api.ListSessionsRequest{AppName: "assistant", UserId: user})
	if err != nil {
		t.Fatal(err)
	}
	if len(listed.Sessions) != 1 || listed.Sessions[0].Id != sid {
		t.Errorf("replica B lists %v, want the one session %s", listed.Sessions, sid)
	}

	answerB := mustRunText(t, ctx, b.conn, user, sid, "hello through B")
	viaA := getSession(t, ctx, a.conn, user, sid)
	checkHistory(t, viaA, []turn{{"hello through A", true}, {"hello through B", true}})
	if n := len(viaA.Events); n != 4 || viaA.Events[3].Id != answerB.Id {
		t.Errorf("replica A sees %d events; want B's answer %s last", n, answerB.Id)
	}
	if !proto.Equal(viaA.Events[3], answerB) {
		t.Errorf("B's answer as stored, read through A:\n%v\nas B sent it:\n%v", viaA.Events[3], answerB)
	}

	// Both replicas run on the session at once; the model's latency keeps
	// the first invocation holding the lease while the second asks for it,
	// and for longer than the second waits for it (--session-busy-wait).
	a.setModelLatency(t, 5*time.Second)
	b.setModelLatency(t, 5*time.Second)
	replicas := map[string]*stack{"A": a, "B": b}
	type outcome struct {
		events []*v1.Event
		err    error
	}
	outcomes := make(map[string]outcome, 2)
	var (
		mu    sync.Mutex
		wg    sync.WaitGroup
		start = make(chan struct{})
	)
	for name, s := range replicas {
		wg.Go(func() {
			<-start
			events, err := runText(ctx, s.conn, user, sid, "at once through "+name)
			mu.Lock()
			outcomes[name] = outcome{events, err}
			mu.Unlock()
		})
	}
	close(start)
	wg.Wait()

	var winner, loser string
	for name, o := range outcomes {
		switch {
		case o.err == nil:
			winner = name
		case status.Code(o.err) == codes.Aborted:
			loser = name
			if msg := status.Convert(o.err).Message(); !strings.Contains(msg, "session is busy") || statusReason(o.err) != "SESSION_BUSY" {
				t.Errorf("replica %s: ABORTED with %q (reason %q), want \"session is busy\" (SESSION_BUSY)", name, msg, statusReason(o.err))
			}
			if len(o.events) != 0 {
				t.Errorf("replica %s was refused but sent %d events", name, len(o.events))
			}
		default:
			t.Errorf("replica %s: %v, want success or ABORTED", name, o.err)
		}
	}
	if winner == "" || loser == "" {
		t.Fatalf("concurrent runs: A %v, B %v; want one to succeed and one to be refused as busy", outcomes["A"].err, outcomes["B"].err)
	}
	text := "at once through " + winner
	if ev := outcomes[winner].events; len(ev) != 1 || ev[0].GetContent().GetParts()[0].GetText() != "Echo: "+text {
		t.Errorf("replica %s answered %v, want \"Echo: %s\"", winner, ev, text)
	}
	// The refused invocation stored nothing; both replicas read the same.
	want := []turn{{"hello through A", true}, {"hello through B", true}, {text, true}}
	fromA, fromB := getSession(t, ctx, a.conn, user, sid), getSession(t, ctx, b.conn, user, sid)
	checkHistory(t, fromA, want)
	if diff := cmp.Diff(fromA, fromB, protocmp.Transform()); diff != "" {
		t.Errorf("the replicas read different sessions (-A +B):\n%s", diff)
	}
}

// deleteSessionAfter deletes a session through s once the test ends, so
// that a shared store does not keep it.
func deleteSessionAfter(t *testing.T, s *stack, app, user, sid string) {
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if _, err := api.NewSessionServiceClient(s.conn).DeleteSession(ctx, &api.DeleteSessionRequest{AppName: app, UserId: user, SessionId: sid}); err != nil {
			t.Logf("delete session %s: %v", sid, err)
		}
	})
}

func randomHex(t *testing.T) string {
	t.Helper()
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}
