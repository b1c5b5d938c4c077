package redis

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// Bounds of TestClusterFailoverTimeToServe.
const (
	// serveBudget is how long after Redis reports the new primary the
	// sessions of the failed shard may still fail.
	serveBudget = 2 * time.Second
	// readinessTimeout is the readiness probe's bound on a store check.
	readinessTimeout = 500 * time.Millisecond
)

// servedOp is one operation of the load: when it ran, whether it wrote, and
// how it ended.
type servedOp struct {
	start, end time.Time
	write      bool
	err        error
}

// servedSession is a session under load through one Service.
type servedSession struct {
	svc     *Service
	label   string
	user    string
	handle  *v1.Session
	victim  bool // on the shard whose primary is killed
	appKeys bool // its appends write app: keys, which live on that shard
	ops     []servedOp
}

// run reads the session and appends to it until stop closes, pausing
// between rounds, and records every operation.
func (s *servedSession) run(ctx context.Context, stop <-chan struct{}) {
	for k := 0; ; k++ {
		start := time.Now()
		fresh, err := s.svc.Get(ctx, sessions.GetRequest{AppName: s.handle.AppName, UserID: s.user,
			SessionID: s.handle.Id, NumRecentEvents: 1})
		s.ops = append(s.ops, servedOp{start: start, end: time.Now(), err: err})
		if err == nil {
			fresh.Events = nil
			delta := map[string]any{"n": k, "user:n": k}
			if s.appKeys {
				// A key per append, so that a write that never landed
				// is not hidden by a later one.
				delta[fmt.Sprintf("app:%s.%d", s.user, k)] = k
			}
			sd, _ := structpb.NewStruct(delta)
			ev := &v1.Event{Id: fmt.Sprintf("%s-%d", s.user, k), InvocationId: "e-load", Author: "agent",
				Content: &v1.Content{Role: "model", Parts: []*v1.Part{{Text: "load"}}},
				Actions: &v1.EventActions{StateDelta: sd}}
			start = time.Now()
			err = s.svc.AppendEvent(ctx, fresh, ev)
			s.ops = append(s.ops, servedOp{start: start, end: time.Now(), write: true, err: err})
		}
		if k%4 == 0 {
			start = time.Now()
			_, err = s.svc.List(ctx, s.handle.AppName, s.user)
			s.ops = append(s.ops, servedOp{start: start, end: time.Now(), err: err})
		}
		select {
		case <-stop:
			return
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// readinessProbe checks a Service as cmd/agentsvc's readiness does, every
// 100 ms, and records each outcome.
type readinessProbe struct {
	svc    *Service
	label  string
	checks []servedOp
}

func (p *readinessProbe) run(ctx context.Context, stop <-chan struct{}) {
	for {
		start := time.Now()
		pctx, cancel := context.WithTimeout(ctx, readinessTimeout)
		err := p.svc.Ping(pctx)
		cancel()
		p.checks = append(p.checks, servedOp{start: start, end: time.Now(), err: err})
		select {
		case <-stop:
			return
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// transitions counts changes between passing and failing checks.
func (p *readinessProbe) transitions() int {
	n := 0
	for i := 1; i < len(p.checks); i++ {
		if (p.checks[i].err == nil) != (p.checks[i-1].err == nil) {
			n++
		}
	}
	return n
}

// TestClusterFailoverTimeToServe kills the primary that holds the app's
// state, under load from two Services (one that waits for a replica on
// every write, the default, and one that does not), and measures: sessions
// on the other shards never fail, app state included; sessions on the
// failed shard are read and written again by both Services within
// serveBudget of Redis reporting the new primary (the one that waits
// without waiting, the promoted primary having no replica); once the dead
// node is back as its replica, the waiting Service's writes wait for it
// again and succeed within serveBudget of it being in sync; and the
// readiness check passes throughout.
func TestClusterFailoverTimeToServe(t *testing.T) {
	nodes := startCluster(t)
	seeds := make([]string, len(nodes))
	for i, n := range nodes {
		seeds[i] = n.addr()
	}
	url := "redis+cluster://" + strings.Join(seeds, ",")
	// The cluster shares two cores with the rest of the tests: replica
	// acknowledgements may take longer than in production.
	base := Options{KeyPrefix: "serve", ReadTimeout: 4 * time.Second, WaitTimeout: 2 * time.Second}
	waiting, err := New(url, base)
	if err != nil {
		t.Fatal(err)
	}
	defer waiting.Close()
	base.WaitReplicas = -1
	notWaiting, err := New(url, base)
	if err != nil {
		t.Fatal(err)
	}
	defer notWaiting.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()

	// The victim is the primary of the app's state.
	const app = "app"
	cc := waiting.client.(*goredis.ClusterClient)
	primaryOfKey := func(key string) string {
		node, err := cc.MasterForKey(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		return node.Options().Addr
	}
	victimAddr := primaryOfKey(waiting.keys.appState(app))
	var victim *clusterNode
	var survivors []*clusterNode
	for _, n := range nodes {
		if n.addr() == victimAddr {
			victim = n
		} else {
			survivors = append(survivors, n)
		}
	}
	replica := replicaOf(t, survivors, victim)
	replicaID := nodeID(t, replica)

	// Three sessions per primary and Service, and on another shard one
	// more per Service whose appends write app: keys.
	var loaded []*servedSession
	for _, svc := range []*Service{waiting, notWaiting} {
		label := "waiting"
		if svc == notWaiting {
			label = "not-waiting"
		}
		perPrimary := map[string]int{}
		appWriter := false
		for i := 0; len(perPrimary) < 3 || minCount(perPrimary) < 3 || !appWriter; i++ {
			user := fmt.Sprintf("%s-u%d", label, i)
			addr := primaryOfKey(svc.keys.index(app, user))
			writesApp := false
			switch {
			case perPrimary[addr] < 3:
				perPrimary[addr]++
			case addr != victimAddr && !appWriter:
				writesApp, appWriter = true, true
			default:
				continue
			}
			sess, err := svc.Create(ctx, sessions.CreateRequest{AppName: app, UserID: user})
			if err != nil {
				t.Fatal(err)
			}
			loaded = append(loaded, &servedSession{svc: svc, label: label, user: user, handle: sess,
				victim: addr == victimAddr, appKeys: writesApp})
		}
	}
	probes := []*readinessProbe{{svc: waiting, label: "waiting"}, {svc: notWaiting, label: "not-waiting"}}

	stop := make(chan struct{})
	var wg sync.WaitGroup
	for _, s := range loaded {
		wg.Go(func() { s.run(ctx, stop) })
	}
	for _, p := range probes {
		wg.Go(func() { p.run(ctx, stop) })
	}
	stopped := false
	defer func() {
		if !stopped {
			close(stop)
			wg.Wait()
		}
	}()

	time.Sleep(time.Second)
	killed := time.Now()
	victim.kill()
	promoted := waitReported(t, survivors, 30*time.Second, "a survivor reports the new primary", func(c *goredis.Client) bool {
		topo, err := c.ClusterNodes(ctx).Result()
		return err == nil && reportsPrimary(topo, replicaID)
	})
	t.Logf("killed primary %s; Redis reported %s the new primary %v later", victim.addr(), replica.addr(),
		promoted.Sub(killed).Round(time.Millisecond))
	// Long enough for every kind of operation to be served a few times
	// before the rejoin; a first write may wait out the wait timeout
	// before its primary is found without a replica.
	time.Sleep(serveBudget + 3*time.Second)

	// Back without data, the dead node joins as the new primary's replica,
	// and writes that wait for one are acknowledged again.
	restarted := time.Now()
	victim.start()
	rejoined := waitReported(t, []*clusterNode{replica}, 30*time.Second, "the new primary reports its replica online",
		func(c *goredis.Client) bool {
			repl, err := c.Info(ctx, "replication").Result()
			return err == nil && strings.Contains(repl, "connected_slaves:1") && strings.Contains(repl, "state=online")
		})
	t.Logf("restarted the dead node; the new primary reported it in sync %v after the promotion",
		rejoined.Sub(promoted).Round(time.Millisecond))
	time.Sleep(serveBudget + time.Second)
	close(stop)
	wg.Wait()
	stopped = true

	// Per Service and kind of operation: how long after Redis could serve
	// it again its last failure ended, and how many failed.
	type outcome struct {
		ops, failed int
		served      time.Duration
		okLater     int // successes that started serveBudget after Redis could serve them
	}
	outcomes := map[string]*outcome{}
	for _, s := range loaded {
		for _, op := range s.ops {
			kind, from := "other shards", time.Time{}
			switch {
			case s.victim && op.write && s.svc == waiting && op.start.After(restarted):
				kind, from = "failed shard writes, after the rejoin", rejoined
			case s.appKeys && op.write && s.svc == waiting && op.start.After(restarted):
				kind, from = "app state writes, after the rejoin", rejoined
			case s.victim && op.write:
				kind, from = "failed shard writes, after the promotion", promoted
			case s.appKeys && op.write:
				kind, from = "app state writes, after the promotion", promoted
			case s.victim:
				kind, from = "failed shard reads, after the promotion", promoted
			}
			o := outcomes[s.label+": "+kind]
			if o == nil {
				o = &outcome{}
				outcomes[s.label+": "+kind] = o
			}
			o.ops++
			if op.err == nil {
				if op.start.After(from.Add(serveBudget)) {
					o.okLater++
				}
				continue
			}
			o.failed++
			switch {
			case from.IsZero():
				t.Errorf("%s session %s on a shard that kept serving failed %v after the kill: %v",
					s.label, s.user, op.start.Sub(killed).Round(time.Millisecond), op.err)
			case op.start.After(from.Add(serveBudget)):
				t.Errorf("%s session %s: %s failed %v after Redis could serve it again: %v",
					s.label, s.user, kind, op.start.Sub(from).Round(time.Millisecond), op.err)
			default:
				o.served = max(o.served, op.end.Sub(from))
			}
		}
	}
	for _, kind := range slices.Sorted(maps.Keys(outcomes)) {
		o := outcomes[kind]
		t.Logf("%s: %d of %d operations failed; served again %v after", kind, o.failed, o.ops, o.served.Round(time.Millisecond))
		if o.okLater == 0 {
			t.Errorf("%s: not served %v after Redis could serve them again", kind, serveBudget)
		}
	}
	checkAppStateCaughtUp(t, ctx, app, loaded)
	for _, p := range probes {
		var failed []servedOp
		for _, c := range p.checks {
			if c.err != nil {
				failed = append(failed, c)
			}
		}
		t.Logf("%s readiness: %d of %d checks failed, %d transitions", p.label, len(failed), len(p.checks), p.transitions())
		if len(failed) > 0 {
			t.Errorf("%s readiness failed %d times while other shards answered, the first %v after the kill: %v",
				p.label, len(failed), failed[0].start.Sub(killed).Round(time.Millisecond), failed[0].err)
		}
	}
}

func minCount(m map[string]int) int {
	n := -1
	for _, v := range m {
		if n < 0 || v < n {
			n = v
		}
	}
	return n
}

// nodeID returns a cluster node's id.
func nodeID(t *testing.T, n *clusterNode) string {
	t.Helper()
	c := goredis.NewClient(&goredis.Options{Addr: n.addr(), DisableIdentity: true, MaxRetries: -1})
	defer c.Close()
	id, err := c.ClusterMyID(t.Context()).Result()
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// reportsPrimary reports whether the CLUSTER NODES output topo shows the
// node id as a primary that is not failing.
func reportsPrimary(topo, id string) bool {
	for _, line := range strings.Split(topo, "\n") {
		f := strings.Fields(line)
		if len(f) > 2 && f[0] == id {
			return strings.Contains(f[2], "master") && !strings.Contains(f[2], "fail")
		}
	}
	return false
}

// waitReported polls nodes every 10 ms until cond holds on one of them and
// returns that moment.
func waitReported(t *testing.T, nodes []*clusterNode, within time.Duration, what string, cond func(*goredis.Client) bool) time.Time {
	t.Helper()
	clients := make([]*goredis.Client, len(nodes))
	for i, n := range nodes {
		clients[i] = goredis.NewClient(&goredis.Options{Addr: n.addr(), DisableIdentity: true, MaxRetries: -1,
			DialTimeout: 200 * time.Millisecond, ReadTimeout: 200 * time.Millisecond})
		defer clients[i].Close()
	}
	deadline := time.Now().Add(within)
	for {
		for _, c := range clients {
			if cond(c) {
				return time.Now()
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting %v until %s", within, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// checkAppStateCaughtUp checks that the app state holds the app key of
// every stored event: an append whose event was stored but whose app write
// failed during the failover leaves the write to the Service's backlog,
// which writes it once the shard takes writes again.
func checkAppStateCaughtUp(t *testing.T, ctx context.Context, app string, loaded []*servedSession) {
	t.Helper()
	for _, s := range loaded {
		if !s.appKeys {
			continue
		}
		deadline := time.Now().Add(10 * time.Second)
		for s.svc.backlog.size() > 0 && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		got, err := s.svc.Get(ctx, sessions.GetRequest{AppName: app, UserID: s.user, SessionID: s.handle.Id})
		if err != nil {
			t.Fatalf("%s: read %s after the load: %v", s.label, s.user, err)
		}
		written, missing := 0, 0
		for _, ev := range got.Events {
			for k, want := range ev.GetActions().GetStateDelta().GetFields() {
				if !strings.HasPrefix(k, "app:") {
					continue
				}
				written++
				if v, ok := got.State.GetFields()[k]; !ok || v.GetNumberValue() != want.GetNumberValue() {
					missing++
					if missing <= 3 {
						t.Errorf("%s: %s = %v after the load, want %v, the value its stored event wrote", s.label, k, v, want)
					}
				}
			}
		}
		t.Logf("%s: %d of %d app state writes of stored events missing after the load", s.label, missing, written)
	}
}
