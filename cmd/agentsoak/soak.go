package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
)

// maxRecvMsgSize lets the client read a session as large as the server
// may send.
const maxRecvMsgSize = 64 << 20

// soak is one run of the command.
type soak struct {
	o        *options
	progress io.Writer
	runID    string
	fake     *fakeControl
	// redis is nil over a cluster; cluster is nil over one Redis.
	redis   *redisControl
	cluster *clusterControl
	// replica is the agentsvc replica the chaos kills, or nil.
	replica *replicaControl
	probe   *probe
	// check is the connection of the warm-up and the final reads, to the
	// first replica; conns are the workers', --conns per replica.
	check *grpc.ClientConn
	conns [][]*grpc.ClientConn
}

func newSoak(o *options, progress io.Writer) (*soak, error) {
	id := make([]byte, 3)
	_, _ = rand.Read(id)
	s := &soak{o: o, progress: progress, runID: "soak" + hex.EncodeToString(id),
		fake:  newFakeControl(o.fakeURL),
		probe: newProbe(o.debugURL, o.serverPID)}
	var err error
	if len(o.clusterConfs) > 0 {
		// The key of the app's state in the Redis session store's layout.
		if s.cluster, err = newClusterControl(o.redisServer, o.clusterConfs, "as:app:"+o.app+":state"); err != nil {
			return nil, err
		}
	} else {
		s.redis = &redisControl{bin: o.redisServer, conf: o.redisConf, pidFile: o.redisPIDFile, addr: o.redisAddr}
	}
	if o.replicaStart != "" {
		s.replica = &replicaControl{start: o.replicaStart, pidFile: o.replicaPIDFile, addr: o.addrs[len(o.addrs)-1]}
	}
	if s.check, err = s.dial(o.addrs[0]); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *soak) dial(addr string) (*grpc.ClientConn, error) {
	// A replica that was killed comes back within seconds: reconnect as a
	// mesh's sidecar would, not after gRPC's default backoff of up to two
	// minutes, which would count the client's wait as the service's outage.
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(maxRecvMsgSize)),
		grpc.WithConnectParams(grpc.ConnectParams{MinConnectTimeout: 2 * time.Second,
			Backoff: backoff.Config{BaseDelay: 100 * time.Millisecond, Multiplier: 1.6, Jitter: 0.2, MaxDelay: time.Second}}))
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", addr, err)
	}
	return conn, nil
}

func (s *soak) close() {
	s.closeWorkerConns()
	s.check.Close()
}

func (s *soak) closeWorkerConns() {
	for _, cs := range s.conns {
		for _, c := range cs {
			c.Close()
		}
	}
	s.conns = nil
}

func (s *soak) logf(format string, args ...any) {
	fmt.Fprintf(s.progress, "agentsoak: "+format+"\n", args...)
}

// run is the whole soak: warm-up and baseline, load with chaos, quiet,
// then the checks.
func (s *soak) run(ctx context.Context) (*report, error) {
	rep := &report{o: s.o, runID: s.runID, stats: newOpStats()}
	if err := s.fake.scriptLoad(ctx); err != nil {
		return nil, err
	}
	if s.cluster != nil {
		if err := s.cluster.waitHealthy(ctx, 30*time.Second); err != nil {
			return nil, err
		}
	} else if !s.redis.ping(ctx) {
		return nil, fmt.Errorf("redis does not answer on %s", s.o.redisAddr)
	}
	// Warm up on the check connection, so that the server's lazily
	// started goroutines exist before the baseline.
	warm := newWorker(s, 99, []*grpc.ClientConn{s.check})
	ws := warm.newSession()
	for _, k := range []opKind{opRun, opConnect, opUpdate, opRead} {
		warm.do(ctx, ws, k)
	}
	if !ws.created || !ws.runs[0].acked || !ws.runs[1].acked {
		return nil, fmt.Errorf("warm-up failed (is the stack up?): %v", warm.stats.reasons)
	}
	sleepUntil(ctx, time.Now().Add(2*time.Second))
	var err error
	if rep.goroutinesBefore, err = s.probe.goroutines(ctx); err != nil {
		return nil, err
	}
	if rep.rssBefore, _, err = s.probe.rss(); err != nil {
		return nil, fmt.Errorf("server memory: %w", err)
	}

	workers, chaosLog, err := s.load(ctx, rep)
	if err != nil {
		return nil, err
	}
	rep.chaos = chaosLog
	var loaded []*sessionLog
	for _, w := range workers {
		loaded = append(loaded, w.all...)
	}
	// Before the checks' own invocations add attempts.
	rep.unavail = summarizeUnavailability(loaded, rep.start, rep.chaos)
	workers = append(workers, warm)
	s.closeWorkerConns()
	s.logf("load stopped; quiet for %s", s.o.quiet)
	sleepUntil(ctx, time.Now().Add(s.o.quiet))
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}

	var logs []*sessionLog
	for _, w := range workers {
		rep.stats.merge(w.stats)
		logs = append(logs, w.all...)
	}
	s.logf("reading %d sessions back", len(logs))
	rep.sessions = len(logs)
	all := s.readBack(ctx, logs)
	if s.replica != nil {
		// The invocations on them also write user: keys, which the other
		// sessions of their users read: read every session again.
		if rep.reopened = s.closeCrashedCalls(ctx, all); rep.reopened > 0 {
			all = s.readBack(ctx, logs)
		}
	}
	rep.violations, rep.lone = checkAll(all)
	rep.violations = append(rep.violations, s.listSessions(ctx, workers)...)
	for _, st := range all {
		if st.session != nil {
			rep.readBack++
			rep.events += len(st.session.GetEvents())
		}
	}
	for _, l := range logs {
		rep.acked += len(l.events)
	}
	rep.violations = append(rep.violations, s.serverChecks(ctx, rep)...)
	if s.o.maxUnavail > 0 && rep.unavail.max > s.o.maxUnavail {
		rep.violations = append(rep.violations, violation{vUnavailable, rep.unavail.worst,
			fmt.Sprintf("requests failed for %s, above --max-unavailable %s", round(rep.unavail.max), s.o.maxUnavail)})
	}
	return rep, nil
}

// load runs the workers and the chaos for --duration, then stops the
// chaos and undoes its faults.
func (s *soak) load(ctx context.Context, rep *report) ([]*worker, []chaosEvent, error) {
	for _, addr := range s.o.addrs {
		var cs []*grpc.ClientConn
		for range s.o.conns {
			c, err := s.dial(addr)
			if err != nil {
				return nil, nil, err
			}
			cs = append(cs, c)
		}
		s.conns = append(s.conns, cs)
	}
	start := time.Now()
	rep.start = start
	deadline := start.Add(s.o.duration)
	sampler := startRSSSampler(s.probe)
	ch := &chaos{o: s.o, fake: s.fake, redis: s.redis, cluster: s.cluster, replica: s.replica, start: start}
	chaosCtx, stopChaos := context.WithDeadline(ctx, deadline)
	defer stopChaos()
	var chaosDone sync.WaitGroup
	chaosDone.Go(func() { ch.run(chaosCtx) })

	workers := make([]*worker, s.o.workers)
	var wg sync.WaitGroup
	for i := range workers {
		conns := make([]*grpc.ClientConn, len(s.conns))
		for r, cs := range s.conns {
			conns[r] = cs[i%len(cs)]
		}
		workers[i] = newWorker(s, i, conns)
		wg.Go(func() { workers[i].loop(ctx, deadline) })
	}
	s.logf("run %s: %d workers for %s, seed %d", s.runID, s.o.workers, s.o.duration, s.o.seed)
	progress := time.NewTicker(30 * time.Second)
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()
	for waiting := true; waiting; {
		select {
		case <-progress.C:
			s.logf("%s elapsed, %d chaos events", time.Since(start).Round(time.Second), len(ch.log()))
		case <-finished:
			waiting = false
		}
	}
	progress.Stop()
	stopped := time.Now()
	for _, w := range workers {
		for _, l := range w.all {
			l.avail.finish(stopped)
		}
	}
	stopChaos()
	chaosDone.Wait()
	rep.elapsed = time.Since(start)
	rep.rssPeak = sampler.stop()
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	if err := ch.restore(rctx); err != nil {
		return nil, nil, fmt.Errorf("undo the chaos: %w", err)
	}
	return workers, ch.log(), nil
}

// readBack reads every session the load touched, retrying a failure a few
// times: Redis is up and the service quiet, so a read that keeps failing is
// a violation.
func (s *soak) readBack(ctx context.Context, logs []*sessionLog) []stored {
	client := api.NewSessionServiceClient(s.check)
	out := make([]stored, len(logs))
	for i, l := range logs {
		out[i].log = l
		for attempt := 0; attempt < 3; attempt++ {
			rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			sess, err := getSession(rctx, client, l)
			cancel()
			switch {
			case err == nil:
				out[i].session, out[i].err = sess, nil
			case status.Code(err) == codes.NotFound:
				out[i].session, out[i].err = nil, nil
			default:
				out[i].err = fmt.Errorf("GetSession: %w", err)
				sleepUntil(ctx, time.Now().Add(time.Second))
				continue
			}
			break
		}
	}
	return out
}

// closeCrashedCalls runs one more invocation on every session whose
// history holds a function call without a response, then reads those
// sessions again. A replica killed in the middle of a tool call cannot
// answer it; the session's next invocation must, before it calls the
// model. An invocation refused because the dead replica's lease still
// holds the session is tried again for up to a minute and a half. It
// returns how many sessions it ran an invocation on; the caller reads them
// again.
func (s *soak) closeCrashedCalls(ctx context.Context, all []stored) int {
	w := newWorker(s, 98, []*grpc.ClientConn{s.check})
	var open []int
	for i, st := range all {
		if st.session != nil && len(danglingCalls(st.log.id, st.session.GetEvents())) > 0 {
			open = append(open, i)
		}
	}
	if len(open) == 0 {
		return 0
	}
	s.logf("%d sessions hold calls without a response: running an invocation on each", len(open))
	deadline := time.Now().Add(90 * time.Second)
	for _, i := range open {
		l := all[i].log
		for ctx.Err() == nil {
			w.invoke(ctx, l, opRun)
			if l.runs[len(l.runs)-1].acked || time.Now().After(deadline) {
				break
			}
			sleepUntil(ctx, time.Now().Add(time.Second))
		}
	}
	return len(open)
}

// listSessions lists the sessions of every user: a session whose state
// cannot be decoded breaks the list of its user, or of its app.
func (s *soak) listSessions(ctx context.Context, workers []*worker) []violation {
	client := api.NewSessionServiceClient(s.check)
	var out []violation
	for _, w := range workers {
		rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		_, err := client.ListSessions(rctx, &api.ListSessionsRequest{AppName: s.o.app, UserId: w.user})
		cancel()
		if err != nil {
			out = append(out, violation{vList, "", fmt.Sprintf("user %s: %v", w.user, err)})
		}
	}
	return out
}

// serverChecks forces GCs over the GC window, then checks the server's
// RSS against its bound and waits, up to --settle, for its goroutine count
// to come back within the slack of the count before the load.
func (s *soak) serverChecks(ctx context.Context, rep *report) []violation {
	var out []violation
	if _, _, err := s.probe.rss(); err != nil {
		return []violation{{vServer, "", fmt.Sprintf("the server is gone: %v", err)}}
	}
	for i := range 5 {
		if err := s.probe.gc(ctx); err != nil {
			out = append(out, violation{vServer, "", fmt.Sprintf("forced GC: %v", err)})
			break
		}
		if i < 4 {
			sleepUntil(ctx, time.Now().Add(s.o.gcWindow/4))
		}
	}
	var err error
	if rep.rssAfter, rep.hwm, err = s.probe.rss(); err != nil {
		out = append(out, violation{vServer, "", fmt.Sprintf("server memory: %v", err)})
	} else if bound := s.o.rssBoundMiB << 20; rep.rssAfter > bound {
		out = append(out, violation{vServer, "", fmt.Sprintf("RSS %s after the GC window, above the bound %s", mib(rep.rssAfter), mib(bound))})
	}
	start := time.Now()
	for {
		n, err := s.probe.goroutines(ctx)
		if err != nil {
			return append(out, violation{vServer, "", fmt.Sprintf("goroutines: %v", err)})
		}
		rep.goroutinesAfter, rep.settled = n, time.Since(start)
		if n <= rep.goroutinesBefore+s.o.goroutineSlack {
			return out
		}
		if time.Since(start) >= s.o.settle || !sleepUntil(ctx, time.Now().Add(time.Second)) {
			return append(out, violation{vServer, "", fmt.Sprintf("goroutine leak: %d before the load, %d after %s quiet (slack %d)",
				rep.goroutinesBefore, n, (s.o.quiet + rep.settled).Round(time.Second), s.o.goroutineSlack)})
		}
	}
}
