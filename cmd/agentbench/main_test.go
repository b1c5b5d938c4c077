package main

import (
	"bytes"
	"context"
	"io"
	"iter"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"

	"go.uber.org/goleak"
	"google.golang.org/grpc"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/integration/fakegemini"
	"github.com/agentsvc/agentsvc/internal/config"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/server"
	"github.com/agentsvc/agentsvc/internal/sessions/memory"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// toolCaller calls the first declared tool when the request declares tools
// and answers with text otherwise, as the scripted fake model does.
type toolCaller struct{}

func (toolCaller) Name() string { return "gemini-2.5-flash" }

func (toolCaller) GenerateContent(_ context.Context, req *v1.LlmRequest, _ bool) iter.Seq2[*v1.LlmResponse, error] {
	return func(yield func(*v1.LlmResponse, error) bool) {
		for _, t := range req.GetConfig().GetTools() {
			for _, d := range t.GetFunctionDeclarations() {
				yield(&v1.LlmResponse{Content: &v1.Content{Role: "model", Parts: []*v1.Part{{FunctionCall: &v1.FunctionCall{Name: d.Name}}}}}, nil)
				return
			}
		}
		yield(&v1.LlmResponse{Content: &v1.Content{Role: "model", Parts: []*v1.Part{{Text: "Sunny."}}}}, nil)
	}
}

type resolver struct{}

func (resolver) Model(context.Context, string) (models.Model, error) { return toolCaller{}, nil }

// serve runs the bench app in process and returns its gRPC address and
// the base URL of its REST API.
func serve(t *testing.T) (grpcAddr, restURL string) {
	t.Helper()
	dir := t.TempDir()
	if _, err := writeApp(dir, "bench", "get_weather"); err != nil {
		t.Fatal(err)
	}
	apps, err := config.LoadAll(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	app, info, err := config.Build(apps[0])
	if err != nil {
		t.Fatal(err)
	}
	store := memory.New()
	srv := server.New(server.Config{
		Apps:     []*server.App{{Runner: &runtime.Runner{App: app, Sessions: store, Models: resolver{}}, Info: info}},
		Sessions: store,
		Logger:   slog.New(slog.DiscardHandler),
	})
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gs := grpc.NewServer()
	api.RegisterRunnerServiceServer(gs, srv)
	api.RegisterSessionServiceServer(gs, srv)
	served := make(chan struct{})
	go func() { _ = gs.Serve(lis); close(served) }()
	t.Cleanup(func() { gs.Stop(); <-served })
	rest, err := srv.HTTPHandler(t.Context(), func() bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(rest)
	t.Cleanup(hs.Close)
	return lis.Addr().String(), hs.URL
}

func TestLoad(t *testing.T) {
	t.Parallel()
	addr, restURL := serve(t)
	pid := strconv.Itoa(os.Getpid())
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"run by count", []string{"--mode", "run", "--count", "40", "--concurrency", "4", "--turns", "3"},
			[]string{"invocations  40 ok, 0 failed", "throughput ", "latency      p50 "}},
		{"run by duration", []string{"--mode", "run", "--duration", "200ms", "--concurrency", "2", "--server-pid", pid},
			[]string{" ok, 0 failed", "server RSS   peak sampled ", "server CPU   ", " per invocation"}},
		{"connect with held calls", []string{"--mode", "connect", "--count", "20", "--concurrency", "20",
			"--connect-hold", "300ms", "--server-pid", pid},
			[]string{"invocations  20 ok, 0 failed", "streams      at most 20 tool calls waiting at once", "tool calls held 300ms"}},
		{"rest by count", []string{"--mode", "rest", "--rest-url", restURL, "--count", "30", "--concurrency", "3", "--turns", "4"},
			[]string{"mode rest at " + restURL + ", app bench, 3 concurrent", "invocations  30 ok, 0 failed", "latency      p50 "}},
		{"rest by duration", []string{"--mode", "rest", "--rest-url", restURL, "--duration", "200ms", "--concurrency", "2", "--server-pid", pid},
			[]string{" ok, 0 failed", "server CPU   ", " per invocation"}},
		{"unknown app", []string{"--app", "nope", "--count", "1"}, nil},
		{"unknown app over rest", []string{"--mode", "rest", "--rest-url", restURL, "--app", "nope", "--count", "1"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			err := run(t.Context(), append([]string{"--addr", addr}, tt.args...), &out, io.Discard)
			if tt.want == nil {
				if err == nil || !strings.Contains(err.Error(), `app "nope"`) {
					t.Errorf("err = %v, want one naming the app", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
			if strings.Contains(out.String(), "warning") || strings.Contains(out.String(), "errors ") {
				t.Errorf("unexpected warning or errors:\n%s", out.String())
			}
		})
	}
}

func TestFlagErrors(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--mode", "stream"},
		{"--concurrency", "0"},
		{"--count", "-1"},
		{"--count", "0", "--duration", "0s"},
		{"--connect-hold", "-1s"},
		{"extra"},
		{"--mode", "rest", "--rest-url", "127.0.0.1:8080"},
		{"--mode", "rest", "--rest-prefix", "api"},
		{"--mode", "rest", "--rest-prefix", "/api/"},
	} {
		if _, err := parseFlags(args, io.Discard); err == nil {
			t.Errorf("%v: want an error", args)
		}
	}
}

func TestScriptFake(t *testing.T) {
	t.Parallel()
	fake := fakegemini.New()
	url, err := fake.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer fake.Close()
	if err := scriptFake(t.Context(), url, "get_weather"); err != nil {
		t.Fatal(err)
	}
	ask := func(body string) string {
		resp, err := http.Post(url+"/v1beta/models/gemini-2.5-flash:generateContent", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	user := `"contents":[{"role":"user","parts":[{"text":"Weather?"}]}]`
	if got := ask(`{` + user + `,"tools":[{"functionDeclarations":[{"name":"get_weather"}]}]}`); !strings.Contains(got, `"functionCall"`) {
		t.Errorf("with tools: %s, want a function call", got)
	}
	if got := ask(`{` + user + `}`); !strings.Contains(got, "Echo: Weather?") {
		t.Errorf("without tools: %s, want the default answer", got)
	}
	if err := scriptFake(t.Context(), url+"/nowhere", "x"); err == nil {
		t.Error("want an error from a bad URL")
	}
}
