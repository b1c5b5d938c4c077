package server_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agentsvc/agentsvc/integration/fakegemini"
	"github.com/agentsvc/agentsvc/internal/config"
	"github.com/agentsvc/agentsvc/internal/models/gemini"
	"github.com/agentsvc/agentsvc/internal/models/registry"
	"github.com/agentsvc/agentsvc/internal/procstat"
)

// BenchmarkHeadlineRESTRunOneStep measures one one-step invocation as a
// REST client makes it: POST of a new session, then POST /run (the model
// answers with text at once), over loopback HTTP through the whole REST
// handler (gateway, guard, request ids), the memory session store, and the
// Gemini adapter and SDK talking HTTP to the fake Gemini server.
//
// cpu-ns/op is the process's CPU time per invocation: the client's and the
// fake server's included, so it is above what the service alone spends.
func BenchmarkHeadlineRESTRunOneStep(b *testing.B) {
	fake := fakegemini.New(fakegemini.WithMaxRecorded(0))
	model := httptest.NewServer(fake.Handler())
	b.Cleanup(model.Close)
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	b.Cleanup(hc.CloseIdleConnections)
	fsys := fstest.MapFS{appName + "/root_agent.yaml": {Data: []byte("name: a\nmodel: gemini-2.5-flash\ninstruction: Answer briefly.\n")}}
	cfgs, err := config.LoadAll(fsys)
	if err != nil {
		b.Fatal(err)
	}
	gp, err := gemini.New(b.Context(), gemini.Config{APIKey: "k", BaseURL: model.URL, HTTPClient: hc})
	if err != nil {
		b.Fatal(err)
	}
	fx := newFixture(b, withApp(fsys), withModels(&registry.Resolver{Specs: cfgs[0].Models(), Gemini: gp}), withoutGRPC())
	ts := fx.serveHTTP(b)
	client := ts.Client()
	post := func(path string, body []byte) []byte {
		resp, err := client.Post(ts.URL+path, "application/json", bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		defer resp.Body.Close()
		out, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != http.StatusOK {
			b.Fatalf("POST %s: %d %s %v", path, resp.StatusCode, out, err)
		}
		return out
	}
	sessionsPath := "/apps/" + appName + "/users/" + userID + "/sessions"
	turn := func() {
		var created struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(post(sessionsPath, []byte("{}")), &created); err != nil {
			b.Fatal(err)
		}
		run := `{"appName":"` + appName + `","userId":"` + userID + `","sessionId":"` + created.ID +
			`","newMessage":{"role":"user","parts":[{"text":"What is the capital of France?"}]}}`
		if out := post("/run", []byte(run)); !strings.Contains(string(out), `"author":"a"`) {
			b.Fatalf("/run answered %s", out)
		}
	}
	procstat.Loop(b, turn)
}
