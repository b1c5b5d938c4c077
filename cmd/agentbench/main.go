// Command agentbench puts load on a running agentsvc: many concurrent Run
// or Connect invocations, then prints throughput, latency percentiles, the
// errors by status code and, given the server's process id, its memory
// and the CPU time it used.
//
//	agentbench --addr 127.0.0.1:50051 --app bench --mode run --concurrency 64 --duration 20s
//	agentbench --mode connect --concurrency 10000 --count 10000 --connect-hold 20s --server-pid PID
//	agentbench --mode rest --rest-url http://127.0.0.1:8080 --rest-prefix /api --app bench_agent
//
// In rest mode the invocations go through ADK's REST API instead of gRPC:
// POST {prefix}/apps/{app}/users/{user}/sessions, then POST {prefix}/run
// with ADK's body {appName, userId, sessionId, newMessage}, over one
// keep-alive connection per worker. It drives agentsvc's REST listener
// (--http-addr, no prefix) and adk-go's REST server alike (its launcher
// mounts the API under /api and names the app after its root agent).
//
// In connect mode every stream declares one long-running tool (--tool),
// keeps the tool call waiting for --connect-hold, then answers it with an
// empty result, which ends the turn: one model call per invocation. The
// app's agent must name the tool (--write-app writes such an app) and the
// model must call it; --fake-url scripts a fake Gemini server to do so.
//
// For load runs in a mesh setting, --write-jwt DIR writes a JWKS and a
// token for --user (sent with --token-file), and --otlp-sink ADDR receives
// the server's OTLP traces and metrics and drops them.
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

	"google.golang.org/grpc/metadata"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "agentbench:", err)
		os.Exit(1)
	}
}

// options are the command's flags.
type options struct {
	addr        string
	app         string
	user        string
	mode        string
	concurrency int
	duration    time.Duration
	count       int
	turns       int
	conns       int
	hold        time.Duration
	tool        string
	text        string
	serverPID   int
	fakeURL     string
	writeApp    string
	writeJWT    string
	tokenFile   string
	otlpSink    string
	restURL     string
	restPrefix  string
	// bearer is the token of --token-file, sent by rest mode.
	bearer string
}

func parseFlags(args []string, stderr io.Writer) (*options, error) {
	fs := flag.NewFlagSet("agentbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := &options{}
	fs.StringVar(&o.addr, "addr", "127.0.0.1:50051", "agentsvc gRPC address")
	fs.StringVar(&o.app, "app", "bench", "app to run")
	fs.StringVar(&o.user, "user", "bench", "user id of the sessions")
	fs.StringVar(&o.mode, "mode", "run", "run (RunnerService.Run), connect (RunnerService.Connect with a client tool) or rest (ADK's REST /run)")
	fs.IntVar(&o.concurrency, "concurrency", 64, "invocations in flight at once")
	fs.DurationVar(&o.duration, "duration", 10*time.Second, "how long to put load on the server, when --count is 0")
	fs.IntVar(&o.count, "count", 0, "total invocations to run (0: run for --duration)")
	fs.IntVar(&o.turns, "turns", 10, "invocations per session before a worker starts a new one")
	fs.IntVar(&o.conns, "conns", 4, "gRPC connections the invocations are spread over")
	fs.DurationVar(&o.hold, "connect-hold", 0, "connect mode: how long each stream keeps its tool call waiting before answering")
	fs.StringVar(&o.tool, "tool", "get_weather", "connect mode: the long-running tool the client declares")
	fs.StringVar(&o.text, "text", "What is the weather in Paris?", "the user message of every invocation")
	fs.IntVar(&o.serverPID, "server-pid", 0, "process id of the server, to report its memory (Linux)")
	fs.StringVar(&o.fakeURL, "fake-url", "", "fake Gemini server to script first: every request declaring tools gets a call of --tool")
	fs.StringVar(&o.writeApp, "write-app", "", "write DIR/<app>/root_agent.yaml, an agent naming --tool, and exit")
	fs.StringVar(&o.writeJWT, "write-jwt", "", "write DIR/jwks.json and DIR/token (a JWT for --user, issuer agentbench, audience agentsvc), and exit")
	fs.StringVar(&o.tokenFile, "token-file", "", "send the token in this file as authorization: Bearer on every call")
	fs.StringVar(&o.restURL, "rest-url", "http://127.0.0.1:8080", "rest mode: base URL of the REST API")
	fs.StringVar(&o.restPrefix, "rest-prefix", "", "rest mode: path prefix of the API routes (adk-go's launcher: /api)")
	fs.StringVar(&o.otlpSink, "otlp-sink", "", "receive OTLP/gRPC traces and metrics on this address and drop them, until interrupted")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	switch {
	case fs.NArg() > 0:
		return nil, fmt.Errorf("unexpected arguments: %v", fs.Args())
	case o.mode != "run" && o.mode != "connect" && o.mode != "rest":
		return nil, fmt.Errorf("--mode must be run, connect or rest, not %q", o.mode)
	case o.concurrency < 1, o.conns < 1, o.turns < 1:
		return nil, errors.New("--concurrency, --conns and --turns must be at least 1")
	case o.count < 0, o.duration <= 0 && o.count == 0:
		return nil, errors.New("give a positive --count or --duration")
	case o.hold < 0:
		return nil, errors.New("--connect-hold must not be negative")
	}
	if o.mode == "rest" {
		if err := checkRESTFlags(o); err != nil {
			return nil, err
		}
	}
	return o, nil
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	if o.writeJWT != "" {
		if err := writeJWT(o.writeJWT, o.user); err != nil {
			return err
		}
		fmt.Fprintln(stdout, "wrote", o.writeJWT)
		return nil
	}
	if o.otlpSink != "" {
		return serveOTLPSink(ctx, o.otlpSink, func(spans, metrics int64) {
			fmt.Fprintf(stdout, "otlp sink: %d spans, %d metrics\n", spans, metrics)
		})
	}
	if o.tokenFile != "" {
		token, err := os.ReadFile(o.tokenFile)
		if err != nil {
			return err
		}
		o.bearer = strings.TrimSpace(string(token))
		ctx = metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+o.bearer)
	}
	if o.writeApp != "" {
		file, err := writeApp(o.writeApp, o.app, o.tool)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, "wrote", file)
		return nil
	}
	if o.fakeURL != "" {
		if err := scriptFake(ctx, o.fakeURL, o.tool); err != nil {
			return err
		}
	}
	b, err := newBench(o)
	if err != nil {
		return err
	}
	defer b.close()
	res, err := b.run(ctx)
	if err != nil {
		return err
	}
	res.print(stdout, o)
	return nil
}
