// Command agentsvc serves ADK agents over gRPC and REST.
//
//	agentsvc serve [flags]
//
// Every flag can also be set through an AGENTSVC_* environment variable
// (--grpc-addr is AGENTSVC_GRPC_ADDR).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/agentsvc/agentsvc/internal/sessions"
)

func main() {
	os.Exit(run(os.Args[1:], os.Getenv))
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: agentsvc serve [flags]\n\nRun 'agentsvc serve -h' for the flags.")
}

func run(args []string, getenv func(string) string) int {
	if len(args) == 0 || args[0] != "serve" {
		usage()
		return 2
	}
	opts, err := parseFlags(args[1:], getenv)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "agentsvc:", err)
		return 2
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: opts.logLevel}))
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	if err := serve(ctx, opts, getenv, log); err != nil {
		log.Error("agentsvc failed", "err", err)
		return 1
	}
	return 0
}

// options are the serve flags.
type options struct {
	agents        string
	grpcAddr      string
	httpAddr      string
	sessions      string
	sessionTTL    time.Duration
	geminiBaseURL string
	shutdownGrace time.Duration
	debugAddr     string
	toolTimeout   time.Duration
	// historySessions is -1 for the store's default.
	historySessions int
	logLevel        slog.Level
	// Per-session caps and the Redis command timeout.
	maxSessionEvents int
	maxSessionBytes  int64
	redisTimeout     time.Duration
}

func parseFlags(args []string, getenv func(string) string) (*options, error) {
	fs := flag.NewFlagSet("agentsvc serve", flag.ContinueOnError)
	o := &options{}
	fs.StringVar(&o.agents, "agents", "", "directory with one sub-directory per app, each holding root_agent.yaml (default: the bundled example apps)")
	fs.StringVar(&o.grpcAddr, "grpc-addr", "127.0.0.1:50051", "gRPC listen address")
	fs.StringVar(&o.httpAddr, "http-addr", "127.0.0.1:8080", "REST listen address")
	fs.StringVar(&o.sessions, "sessions", "memory://", "session store: memory:// or redis://host:port/db")
	fs.DurationVar(&o.sessionTTL, "session-ttl", 0, "with Redis, expire a session this long after its last write (0 keeps sessions)")
	fs.StringVar(&o.geminiBaseURL, "gemini-base-url", "", "Gemini API endpoint override (also GOOGLE_GEMINI_BASE_URL)")
	fs.DurationVar(&o.shutdownGrace, "shutdown-grace", 30*time.Second, "how long running invocations may take to finish on SIGTERM")
	fs.DurationVar(&o.toolTimeout, "tool-timeout", 60*time.Second, "how long a Connect client may take to answer one tool call; then the model gets an error response")
	fs.IntVar(&o.historySessions, "history-sessions", -1, "how many recently used sessions keep the model contents built from their history between invocations, in memory (0: none; default: 1024 with memory://, 0 with Redis, whose reads decode events anew)")
	fs.StringVar(&o.debugAddr, "debug-addr", "", "serve Go runtime profiles (net/http/pprof) on this address; off when empty")
	fs.IntVar(&o.maxSessionEvents, "max-session-events", sessions.DefaultMaxEvents, "most events one session may hold; a run that would store more fails with RESOURCE_EXHAUSTED (negative: no cap)")
	fs.Int64Var(&o.maxSessionBytes, "max-session-bytes", sessions.DefaultMaxBytes, "most bytes of encoded events one session may hold (negative: no cap)")
	fs.DurationVar(&o.redisTimeout, "redis-timeout", 500*time.Millisecond, "with Redis, how long to wait to connect and for each command's reply")
	fs.TextVar(&o.logLevel, "log-level", slog.LevelInfo, "log level: debug, info, warn or error")
	// Environment first, so that flags on the command line win.
	var envErr error
	fs.VisitAll(func(f *flag.Flag) {
		name := "AGENTSVC_" + strings.ToUpper(strings.ReplaceAll(f.Name, "-", "_"))
		if v := getenv(name); v != "" && envErr == nil {
			if err := f.Value.Set(v); err != nil {
				envErr = fmt.Errorf("%s: %w", name, err)
			}
		}
	})
	if envErr != nil {
		return nil, envErr
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	return o, nil
}
