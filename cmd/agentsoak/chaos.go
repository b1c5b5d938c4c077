package main

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// chaosEvent is one fault the schedule injected.
type chaosEvent struct {
	at     time.Duration // since the load started
	kind   string
	detail string
	err    error
}

// Kinds of chaos event.
const (
	chaosRedisKill     = "redis killed"
	chaosRedisStart    = "redis restarted"
	chaosModelHang     = "model hangs"
	chaosModelFail     = "model fails"
	chaosStreamForever = "model streams forever"
	chaosPrimaryKill   = "cluster primary killed"
	chaosPromoted      = "replica promoted"
	chaosNodeStart     = "cluster node restarted"
	chaosReplicaKill   = "agentsvc replica killed"
	chaosReplicaStart  = "agentsvc replica restarted"
)

// chaos injects faults on a schedule until its context ends.
type chaos struct {
	o     *options
	fake  *fakeControl
	redis *redisControl
	// cluster and replica are nil unless the soak runs over a cluster
	// and two replicas.
	cluster *clusterControl
	replica *replicaControl
	start   time.Time

	mu     sync.Mutex
	events []chaosEvent
}

func (c *chaos) note(kind, detail string, err error) {
	c.noteAt(time.Now(), kind, detail, err)
}

// noteAt notes an event that happened at t: a kill is noted once it is
// done, but its outages begin with the signal.
func (c *chaos) noteAt(t time.Time, kind, detail string, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.events = append(c.events, chaosEvent{at: t.Sub(c.start), kind: kind, detail: detail, err: err})
	// Keep the log in order of time.
	slices.SortStableFunc(c.events, func(a, b chaosEvent) int { return cmp.Compare(a.at, b.at) })
}

func (c *chaos) log() []chaosEvent {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]chaosEvent(nil), c.events...)
}

// run runs every schedule until ctx ends. The first fault of each kind
// comes at an offset of its period, so that kinds do not all coincide.
func (c *chaos) run(ctx context.Context) {
	var wg sync.WaitGroup
	every := func(period time.Duration, offset float64, f func(context.Context, int)) {
		if period <= 0 {
			return
		}
		wg.Go(func() {
			next := time.Duration(float64(period) * offset)
			for i := 0; ; i++ {
				if !sleepUntil(ctx, c.start.Add(next)) {
					return
				}
				f(ctx, i)
				next += period
			}
		})
	}
	if c.redis != nil {
		every(c.o.redisEvery, 0.5, c.killRedis)
	}
	every(c.o.hangEvery, 0.2, c.hangModel)
	every(c.o.failEvery, 0.8, c.failModel)
	every(c.o.streamEvery, 0.7, c.streamForever)
	if c.cluster != nil {
		every(c.o.primaryEvery, 0.125, c.killPrimary)
	}
	if c.replica != nil {
		every(c.o.replicaEvery, 0.8, c.killReplica)
	}
	wg.Wait()
}

// killRedis kills Redis with SIGKILL, keeps it down for --redis-down and
// starts it again, even when ctx ends meanwhile.
func (c *chaos) killRedis(ctx context.Context, _ int) {
	killed := time.Now()
	pid, err := c.redis.kill()
	c.noteAt(killed, chaosRedisKill, fmt.Sprintf("pid %d", pid), err)
	if err != nil {
		return
	}
	sleepUntil(ctx, time.Now().Add(c.o.redisDown))
	err = c.redis.start(context.WithoutCancel(ctx))
	c.note(chaosRedisStart, "", err)
}

// hangModel makes every model call wait --hang-latency for --hang-for.
func (c *chaos) hangModel(ctx context.Context, _ int) {
	err := c.fake.setLatency(ctx, c.o.hangLatency)
	c.note(chaosModelHang, fmt.Sprintf("latency %s for %s", c.o.hangLatency, c.o.hangFor), err)
	sleepUntil(ctx, time.Now().Add(c.o.hangFor))
	if err := c.fake.setLatency(context.WithoutCancel(ctx), 0); err != nil {
		c.note(chaosModelHang, "latency back to 0", err)
	}
}

// failCodes are the HTTP errors the model fails with, in turn.
var failCodes = []int{503, 500, 429}

// failModel makes the next --fail-count model calls fail.
func (c *chaos) failModel(ctx context.Context, i int) {
	code := failCodes[i%len(failCodes)]
	err := c.fake.failNext(ctx, c.o.failCount, code, "soak: injected model failure")
	c.note(chaosModelFail, fmt.Sprintf("next %d calls answer HTTP %d", c.o.failCount, code), err)
}

// streamForever makes the next --stream-calls model calls answer without
// end: a streamed call gets chunks over and over, another a text that never
// ends, until the service cuts it off at its size caps or deadlines.
func (c *chaos) streamForever(ctx context.Context, _ int) {
	err := c.fake.queueEndless(ctx, c.o.streamCalls)
	c.note(chaosStreamForever, fmt.Sprintf("next %d calls answer without end", c.o.streamCalls), err)
}

// restore undoes every fault: Redis (or every cluster node and the
// cluster at rest) up, every replica up, the model answering at once.
func (c *chaos) restore(ctx context.Context) error {
	var errs []error
	if c.cluster != nil {
		started, err := c.cluster.restore(ctx)
		for _, addr := range started {
			c.note(chaosNodeStart, addr+" after the load", nil)
		}
		if err == nil {
			err = c.cluster.waitHealthy(ctx, time.Minute)
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	if c.replica != nil && !listening(c.replica.addr) {
		if err := c.replica.restart(ctx); err != nil {
			errs = append(errs, err)
		} else {
			c.note(chaosReplicaStart, "after the load", nil)
		}
	}
	if c.redis != nil && !c.redis.ping(ctx) {
		if err := c.redis.start(ctx); err != nil {
			errs = append(errs, err)
		} else {
			c.note(chaosRedisStart, "after the load", nil)
		}
	}
	if err := c.fake.setLatency(ctx, 0); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// sleepUntil waits until t; it reports false when ctx ended first.
func sleepUntil(ctx context.Context, t time.Time) bool {
	timer := time.NewTimer(time.Until(t))
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// redisControl kills and restarts the private redis-server the soak
// script started: same configuration file, so same port, directory and
// append-only file.
type redisControl struct {
	bin, conf, pidFile, addr string

	mu    sync.Mutex
	procs []*exec.Cmd // the servers this process started
}

// kill sends SIGKILL to the server named by the pidfile, after checking
// that the process is a redis-server, and waits until its port is closed.
func (r *redisControl) kill() (int, error) {
	return killNamed(r.pidFile, "redis-server", r.addr)
}

// killNamed sends SIGKILL to the process the pidfile names, after checking
// that its command name starts with comm, and waits until nothing listens
// on addr.
func killNamed(pidFile, comm, addr string) (int, error) {
	data, err := os.ReadFile(pidFile)
	if err != nil {
		return 0, fmt.Errorf("%s pidfile: %w", comm, err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil || pid <= 1 {
		return 0, fmt.Errorf("%s pidfile: %q is not a process id", comm, data)
	}
	got, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	if err != nil || !strings.HasPrefix(string(got), comm) {
		return pid, fmt.Errorf("process %d is not %s (%q, %v)", pid, comm, strings.TrimSpace(string(got)), err)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		return pid, fmt.Errorf("kill %s %d: %w", comm, pid, err)
	}
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if !listening(addr) {
			return pid, nil
		}
	}
	return pid, fmt.Errorf("%s %d still listens on %s", comm, pid, addr)
}

// listening reports whether addr accepts a connection.
func listening(addr string) bool {
	conn, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
	if err != nil {
		return false
	}
	conn.Close()
	return true
}

// start runs redis-server with the configuration file and waits until it
// answers PING (it loads the append-only file first).
func (r *redisControl) start(ctx context.Context) error {
	cmd := exec.Command(r.bin, r.conf)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start redis: %w", err)
	}
	r.mu.Lock()
	r.procs = append(r.procs, cmd)
	r.mu.Unlock()
	// Reap it when it dies, killed or stopped by the script.
	go func() { _ = cmd.Wait() }()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		if r.ping(ctx) {
			return nil
		}
		sleepUntil(ctx, time.Now().Add(50*time.Millisecond))
	}
	return fmt.Errorf("redis did not answer PING on %s after its restart", r.addr)
}

// ping reports whether Redis answers PING within a second.
func (r *redisControl) ping(ctx context.Context) bool {
	d := net.Dialer{Timeout: time.Second}
	conn, err := d.DialContext(ctx, "tcp", r.addr)
	if err != nil {
		return false
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(time.Second))
	if _, err := conn.Write([]byte("PING\r\n")); err != nil {
		return false
	}
	line, err := bufio.NewReader(conn).ReadString('\n')
	return err == nil && strings.HasPrefix(line, "+PONG")
}
