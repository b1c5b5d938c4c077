// Command agentsoak is a bounded chaos run against a built agentsvc backed
// by Redis and the fake Gemini server: concurrent Run and Connect
// invocations while Redis is killed and restarted, the model hangs and
// fails, and clients vanish in the middle of tool calls. When the time is
// up it stops the chaos, lets the service go quiet, reads every session
// back and checks that each is whole: every acknowledged write present
// once, no function call left without a response, state equal to the fold
// of the stored state deltas, server memory back under a bound and no
// goroutine leaked. It prints a summary and exits 1 on any violation.
//
// scripts/soak.sh (make soak) starts the stack and runs it:
//
//	agentsoak --addr 127.0.0.1:50071 --debug-url http://127.0.0.1:6071 --fake-url http://127.0.0.1:8071 \
//	    --server-pid PID --redis-conf DIR/redis.conf --redis-pidfile DIR/redis.pid --redis-addr 127.0.0.1:6390 \
//	    --duration 10m
//
// scripts/soak-cluster.sh (make soak-cluster) runs it over a Redis Cluster
// of three primaries and three replicas and two agentsvc replicas, which
// the load spreads its sessions over; the chaos kills a cluster primary and
// an agentsvc replica in the middle of invocations, and the summary adds
// the longest unavailability per session:
//
//	agentsoak --addr 127.0.0.1:50071,127.0.0.1:50072 ... --cluster-confs DIR/n1/redis.conf,... \
//	    --primary-kill-every 2m --replica-kill-every 2m --replica-start DIR/replica2.sh --replica-pidfile DIR/replica2.pid
//
// --write-app DIR writes the app the load needs (DIR/soak/root_agent.yaml)
// and exits.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code, err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "agentsoak:", err)
		os.Exit(2)
	}
	os.Exit(code)
}

// options are the command's flags.
type options struct {
	// addrs are the replicas' gRPC addresses; the first is also the one
	// the warm-up, the final reads and the server checks use.
	addrs     []string
	debugURL  string
	fakeURL   string
	serverPID int
	app       string
	writeApp  string
	seed      int64

	duration    time.Duration
	workers     int
	sessions    int
	turns       int
	conns       int
	think       time.Duration
	runTimeout  time.Duration
	toolTimeout time.Duration
	retries     int

	redisConf      string
	redisPIDFile   string
	redisAddr      string
	redisServer    string
	redisEvery     time.Duration
	redisDown      time.Duration
	hangEvery      time.Duration
	hangFor        time.Duration
	hangLatency    time.Duration
	failEvery      time.Duration
	failCount      int
	streamEvery    time.Duration
	streamCalls    int
	quiet          time.Duration
	settle         time.Duration
	gcWindow       time.Duration
	rssBoundMiB    uint64
	goroutineSlack int

	clusterConfs   []string
	primaryEvery   time.Duration
	primaryDown    time.Duration
	replicaEvery   time.Duration
	replicaDown    time.Duration
	replicaStart   string
	replicaPIDFile string
	maxUnavail     time.Duration
}

func parseFlags(args []string, stderr io.Writer) (*options, error) {
	fs := flag.NewFlagSet("agentsoak", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := &options{}
	addrs := fs.String("addr", "127.0.0.1:50051", "agentsvc gRPC address; several replicas' addresses separated by commas share the load")
	fs.StringVar(&o.debugURL, "debug-url", "", "the first replica's --debug-addr as a URL (http://127.0.0.1:PORT), for goroutine counts and forced GC")
	fs.StringVar(&o.fakeURL, "fake-url", "", "the fake Gemini server agentsvc calls (required: the load scripts it and the chaos drives it)")
	fs.IntVar(&o.serverPID, "server-pid", 0, "the first replica's process id, for its memory (required)")
	fs.StringVar(&o.app, "app", "soak", "app to run; --write-app writes it")
	fs.StringVar(&o.writeApp, "write-app", "", "write DIR/<app>/root_agent.yaml, the agent the load needs, and exit")
	fs.Int64Var(&o.seed, "seed", 0, "seed of the load's choices (0: from the clock; the summary prints it)")

	fs.DurationVar(&o.duration, "duration", 10*time.Minute, "how long to put load and chaos on the service")
	fs.IntVar(&o.workers, "workers", 16, "concurrent clients, each owning --sessions sessions")
	fs.IntVar(&o.sessions, "sessions", 3, "sessions each worker owns at a time")
	fs.IntVar(&o.turns, "turns", 40, "invocations per session before its worker replaces it by a new one")
	fs.IntVar(&o.conns, "conns", 4, "gRPC connections the workers share (a client that vanishes by closing its connection dials its own)")
	fs.DurationVar(&o.think, "think", 50*time.Millisecond, "mean pause of a worker between operations")
	fs.DurationVar(&o.runTimeout, "run-timeout", 10*time.Second, "client deadline of one invocation attempt")
	fs.DurationVar(&o.toolTimeout, "tool-timeout", 3*time.Second, "agentsvc's --tool-timeout; slow tool answers take up to 1.2 times it")
	fs.IntVar(&o.retries, "retries", 2, "retries of an invocation that failed with DEADLINE_EXCEEDED, UNAVAILABLE or ABORTED, with the same request_id")

	fs.StringVar(&o.redisConf, "redis-conf", "", "redis.conf of the private redis-server, to restart it (required)")
	fs.StringVar(&o.redisPIDFile, "redis-pidfile", "", "the pidfile that redis.conf names, to kill it (required)")
	fs.StringVar(&o.redisAddr, "redis-addr", "", "host:port of the private redis-server (required)")
	fs.StringVar(&o.redisServer, "redis-server", "redis-server", "redis-server binary")
	fs.DurationVar(&o.redisEvery, "redis-kill-every", time.Minute, "kill Redis with SIGKILL this often (0: never)")
	fs.DurationVar(&o.redisDown, "redis-down", 3*time.Second, "how long Redis stays down before its restart")
	fs.DurationVar(&o.hangEvery, "hang-every", 90*time.Second, "make the model hang this often (0: never)")
	fs.DurationVar(&o.hangFor, "hang-for", 12*time.Second, "how long the model hangs each time")
	fs.DurationVar(&o.hangLatency, "hang-latency", 5*time.Minute, "the model's delay while it hangs, far above --run-timeout")
	fs.DurationVar(&o.failEvery, "fail-every", 45*time.Second, "make the model fail this often (0: never)")
	fs.IntVar(&o.failCount, "fail-count", 30, "model calls that fail each time (the model adapter may retry some)")
	fs.DurationVar(&o.streamEvery, "stream-every", 90*time.Second, "make the model stream without end this often (0: never)")
	fs.IntVar(&o.streamCalls, "stream-calls", 10, "how many model calls stream without end each time")
	fs.DurationVar(&o.quiet, "quiet", 10*time.Second, "pause after the load and chaos stop, before the checks")
	fs.DurationVar(&o.settle, "settle", time.Minute, "how long the goroutine count may take to come back within the slack")
	fs.DurationVar(&o.gcWindow, "gc-window", 10*time.Second, "forced GCs (pprof heap?gc=1) spread over this window before reading RSS")
	fs.Uint64Var(&o.rssBoundMiB, "rss-bound", 512, "bound on the server's RSS after the GC window, MiB")
	fs.IntVar(&o.goroutineSlack, "goroutine-slack", 20, "goroutines the server may have above its count before the load")
	confs := fs.String("cluster-confs", "", "redis.conf of each node of a private Redis Cluster, separated by commas, to kill and restart them (instead of --redis-*)")
	fs.DurationVar(&o.primaryEvery, "primary-kill-every", 0, "kill a cluster primary with SIGKILL this often (0: never)")
	fs.DurationVar(&o.primaryDown, "primary-down", 20*time.Second, "how long a killed cluster node stays down before its restart (above cluster-node-timeout, so that its replica takes over)")
	fs.DurationVar(&o.replicaEvery, "replica-kill-every", 0, "kill the last agentsvc replica of --addr with SIGKILL this often, mid invocation (0: never)")
	fs.DurationVar(&o.replicaDown, "replica-down", 5*time.Second, "how long a killed agentsvc replica stays down before its restart")
	fs.StringVar(&o.replicaStart, "replica-start", "", "script that starts the last replica: writes its pid to --replica-pidfile, then execs agentsvc")
	fs.StringVar(&o.replicaPIDFile, "replica-pidfile", "", "the pidfile --replica-start writes")
	fs.DurationVar(&o.maxUnavail, "max-unavailable", 0, "fail when a session's requests fail for longer than this (0: report only)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	if o.writeApp != "" {
		return o, nil
	}
	o.addrs = splitList(*addrs)
	o.clusterConfs = splitList(*confs)
	switch {
	case len(o.addrs) == 0:
		return nil, errors.New("--addr is required")
	case o.fakeURL == "", o.debugURL == "", o.serverPID <= 0:
		return nil, errors.New("--fake-url, --debug-url and --server-pid are required")
	case len(o.clusterConfs) == 0 && (o.redisConf == "" || o.redisPIDFile == "" || o.redisAddr == ""):
		return nil, errors.New("--redis-conf, --redis-pidfile and --redis-addr are required without --cluster-confs")
	case len(o.clusterConfs) > 0 && o.redisConf != "":
		return nil, errors.New("--cluster-confs and --redis-conf exclude each other")
	case o.primaryEvery > 0 && len(o.clusterConfs) == 0:
		return nil, errors.New("--primary-kill-every needs --cluster-confs")
	case o.replicaEvery > 0 && (len(o.addrs) < 2 || o.replicaStart == "" || o.replicaPIDFile == ""):
		return nil, errors.New("--replica-kill-every needs two --addr, --replica-start and --replica-pidfile")
	case o.primaryEvery < 0, o.replicaEvery < 0, o.primaryDown < 0, o.replicaDown < 0, o.maxUnavail < 0:
		return nil, errors.New("kill periods, down times and --max-unavailable must not be negative")
	case o.workers < 1, o.sessions < 1, o.turns < 1, o.conns < 1:
		return nil, errors.New("--workers, --sessions, --turns and --conns must be at least 1")
	case o.duration <= 0, o.runTimeout <= 0, o.toolTimeout <= 0:
		return nil, errors.New("--duration, --run-timeout and --tool-timeout must be positive")
	case o.retries < 0, o.failCount < 0, o.goroutineSlack < 0, o.think < 0:
		return nil, errors.New("--retries, --fail-count, --goroutine-slack and --think must not be negative")
	case o.redisEvery < 0, o.hangEvery < 0, o.failEvery < 0, o.streamEvery < 0:
		return nil, errors.New("chaos periods must not be negative")
	}
	if o.seed == 0 {
		o.seed = time.Now().UnixNano()
	}
	return o, nil
}

// splitList splits a comma-separated list, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// run parses the flags and runs the soak; it returns the exit code: 0
// when every check passed, 1 otherwise.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return 2, err
	}
	if o.writeApp != "" {
		file, err := writeApp(o.writeApp, o.app)
		if err != nil {
			return 2, err
		}
		fmt.Fprintln(stdout, "wrote", file)
		return 0, nil
	}
	s, err := newSoak(o, stderr)
	if err != nil {
		return 2, err
	}
	defer s.close()
	rep, err := s.run(ctx)
	if err != nil {
		return 2, err
	}
	rep.print(stdout)
	if len(rep.violations) > 0 {
		return 1, nil
	}
	return 0, nil
}
