package server_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"testing/fstest"
	"time"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/integration/fakegemini"
	"github.com/agentsvc/agentsvc/internal/config"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/models/anthropic"
	"github.com/agentsvc/agentsvc/internal/models/gemini"
	"github.com/agentsvc/agentsvc/internal/models/openai"
	"github.com/agentsvc/agentsvc/internal/models/registry"
	"github.com/agentsvc/agentsvc/internal/procstat"
)

// BenchmarkRunOneStepModelAdapterMemoryStore measures one one-step
// invocation (the model answers with text at once) over gRPC on bufconn,
// session creation included, through the real adapter and SDK of each
// provider talking HTTP to the fake server, which waits the same 1ms
// before each answer: "gemini" (a Gemini model name) and "openai" (a
// LiteLlm model_code, openai/ through the Chat Completions adapter) and
// "anthropic" (anthropic/ through LiteLlm, the Messages API adapter).
//
// cpu-ns/op is the process's CPU time (user and system) per invocation,
// the fake server's and the client's included.
func BenchmarkRunOneStepModelAdapterMemoryStore(b *testing.B) {
	fake := fakegemini.New(fakegemini.WithLatency(time.Millisecond), fakegemini.WithMaxRecorded(0))
	srv := httptest.NewServer(fake.Handler())
	b.Cleanup(srv.Close)
	transport := &http.Transport{MaxIdleConnsPerHost: 16}
	b.Cleanup(transport.CloseIdleConnections)
	hc := &http.Client{Transport: transport}
	apps := map[string]string{
		"gemini": "name: a\nmodel: gemini-2.5-flash\ninstruction: Answer briefly.\n",
		"openai": "name: a\ninstruction: Answer briefly.\nmodel_code:\n  name: google.adk.models.lite_llm.LiteLlm\n  args:\n" +
			"    - name: model\n      value: openai/gpt-4o-mini\n    - name: api_base\n      value: " + srv.URL + "/v1\n",
		"anthropic": "name: a\ninstruction: Answer briefly.\nmodel_code:\n  name: google.adk.models.lite_llm.LiteLlm\n  args:\n" +
			"    - name: model\n      value: anthropic/claude-sonnet-4-5\n    - name: api_base\n      value: " + srv.URL + "\n",
	}
	for _, provider := range []string{"gemini", "openai", "anthropic"} {
		b.Run(provider, func(b *testing.B) {
			fsys := fstest.MapFS{appName + "/root_agent.yaml": {Data: []byte(apps[provider])}}
			cfgs, err := config.LoadAll(fsys)
			if err != nil {
				b.Fatal(err)
			}
			gp, err := gemini.New(b.Context(), gemini.Config{APIKey: "k", BaseURL: srv.URL, HTTPClient: hc})
			if err != nil {
				b.Fatal(err)
			}
			resolver := &registry.Resolver{Specs: cfgs[0].Models(), Gemini: gp,
				OpenAI: func(_ context.Context, s registry.Spec) (models.Model, error) {
					cfg, err := openai.ConfigFromSpec(s, func(string) string { return "sk-bench" })
					if err != nil {
						return nil, err
					}
					cfg.HTTPClient = hc
					return openai.New(cfg)
				},
				Anthropic: func(ctx context.Context, s registry.Spec) (models.Model, error) {
					cfg, err := anthropic.ConfigFromSpec(s, func(string) string { return "sk-bench" })
					if err != nil {
						return nil, err
					}
					cfg.HTTPClient = hc
					return anthropic.NewLiteLLM(ctx, cfg)
				}}
			fx := newFixture(b, withApp(fsys), withModels(resolver))
			ctx := b.Context()
			turn := func() {
				created, err := fx.sessions.CreateSession(ctx, &api.CreateSessionRequest{AppName: appName, UserId: userID})
				if err != nil {
					b.Fatal(err)
				}
				stream, err := fx.runner.Run(ctx, &api.RunRequest{AppName: appName, UserId: userID, SessionId: created.Session.Id,
					NewMessage: &v1.Content{Role: "user", Parts: []*v1.Part{{Text: "What is the capital of France?"}}}})
				if err != nil {
					b.Fatal(err)
				}
				for {
					_, err := stream.Recv()
					if errors.Is(err, io.EOF) {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
				}
			}
			procstat.Loop(b, turn)
		})
	}
}
