// Command adkgoserver serves adk-go's REST API for one agent, the way
// adk-go's production launcher (web + api) serves it, so that agentbench
// --mode rest can put the same load on adk-go as on agentsvc:
//
//	adkgoserver --addr 127.0.0.1:8092 --gemini-base-url http://127.0.0.1:8091
//
// The agent is the one agentbench --write-app writes for agentsvc:
// bench_agent on gemini-2.5-flash with the same description and
// instruction. adk-go's launcher names the app after its root agent, so
// the app is bench_agent here (agentbench --app bench_agent). agentsvc declares that app's get_weather to the model
// only when a Connect client declares it, so on /run the model sees no
// tool; this agent has none either, and both send the model the same
// request. The model is adk-go's Gemini model on the genai SDK, pointed
// at --gemini-base-url (a fake Gemini server) with a dummy API key.
//
// As the launcher does, the server keeps sessions, artifacts and memory
// in memory, mounts the API under /api behind its CORS middleware and
// the request logger (one log line per request, on stderr), and installs
// adk-go's OpenTelemetry providers with the REST server's in-memory span
// and log processors (what /api/debug/trace serves); nothing is exported.
// Only its listener differs: the launcher listens on every interface,
// this one on --addr, which must be a loopback address.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"google.golang.org/adk/agent"
	"google.golang.org/adk/agent/llmagent"
	"google.golang.org/adk/artifact"
	"google.golang.org/adk/cmd/launcher"
	"google.golang.org/adk/cmd/launcher/web"
	"google.golang.org/adk/cmd/launcher/web/api"
	"google.golang.org/adk/memory"
	"google.golang.org/adk/model/gemini"
	"google.golang.org/adk/session"
	"google.golang.org/adk/telemetry"
	"google.golang.org/genai"
)

// The launcher's http.Server timeouts (its --write-timeout, --read-timeout,
// --idle-timeout and --shutdown-timeout defaults).
const (
	writeTimeout    = 15 * time.Second
	readTimeout     = 15 * time.Second
	idleTimeout     = 60 * time.Second
	shutdownTimeout = 15 * time.Second
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stderr)
	stop()
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "adkgoserver:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("adkgoserver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8092", "loopback address to listen on")
	baseURL := fs.String("gemini-base-url", "", "base URL of the (fake) Gemini API")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 || *baseURL == "" {
		return errors.New("usage: adkgoserver [--addr HOST:PORT] --gemini-base-url URL")
	}
	if err := requireLoopback(*addr); err != nil {
		return err
	}
	lis, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	handler, shutdown, err := newHandler(ctx, *baseURL)
	if err != nil {
		lis.Close()
		return err
	}
	srv := &http.Server{Handler: handler, WriteTimeout: writeTimeout, ReadTimeout: readTimeout, IdleTimeout: idleTimeout}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(lis) }()
	fmt.Fprintf(stderr, "adk-go REST API on http://%s/api\n", lis.Addr())
	select {
	case err := <-served:
		return errors.Join(err, shutdown(context.Background()))
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	return errors.Join(srv.Shutdown(sctx), shutdown(sctx))
}

// requireLoopback fails unless addr's host is a loopback address.
func requireLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--addr: %w", err)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("--addr %s is not a loopback address", addr)
	}
	return nil
}

// newHandler builds the launcher's router (web + api) for the bench agent
// and installs its telemetry providers; shutdown flushes them.
func newHandler(ctx context.Context, geminiBaseURL string) (http.Handler, func(context.Context) error, error) {
	llm, err := gemini.NewModel(ctx, "gemini-2.5-flash", &genai.ClientConfig{
		APIKey:      "bench",
		Backend:     genai.BackendGeminiAPI,
		HTTPOptions: genai.HTTPOptions{BaseURL: geminiBaseURL},
	})
	if err != nil {
		return nil, nil, err
	}
	root, err := llmagent.New(llmagent.Config{
		Name:        "bench_agent",
		Model:       llm,
		Description: "Answers questions about the weather.",
		Instruction: "Answer briefly. Use get_weather when asked about the weather.",
	})
	if err != nil {
		return nil, nil, err
	}
	cfg := &launcher.Config{
		AgentLoader:     agent.NewSingleLoader(root),
		SessionService:  session.InMemoryService(),
		ArtifactService: artifact.InMemoryService(),
		MemoryService:   memory.InMemoryService(),
	}
	router := web.BuildBaseRouter()
	router.HandleFunc("/health", health).Methods(http.MethodGet, http.MethodHead)
	rest := api.NewLauncher()
	if _, err := rest.Parse(nil); err != nil {
		return nil, nil, err
	}
	if err := rest.SetupSubrouters(router, cfg); err != nil {
		return nil, nil, err
	}
	providers, err := telemetry.New(ctx, append(cfg.TelemetryOptions, telemetry.WithOtelToCloud(false))...)
	if err != nil {
		return nil, nil, err
	}
	providers.SetGlobalOtelProviders()
	return router, providers.Shutdown, nil
}

// health answers as the launcher's root /health does.
func health(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, `{"status":"ok"}`+"\n")
}
