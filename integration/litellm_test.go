package integration

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/integration/fakegemini"
)

// scenarioDir holds the recordings of adk-python with LiteLLM (see its
// README and gen.py); LITELLM_SCENARIOS points elsewhere.
const scenarioDir = "testdata/litellm"

// fakeProviderURL is the placeholder of the provider's URL in a
// scenario's YAML.
const fakeProviderURL = "http://FAKE_PROVIDER"

// The tools of the scenarios (testdata/litellm/tools.py), served as
// Connect client tools with the declarations ADK makes of them.
var (
	scenarioWeather = &api.ToolDeclaration{Name: "get_weather", Description: "Returns the weather forecast for a city.",
		Parameters: mustStruct(map[string]any{"type": "object",
			"properties": map[string]any{"city": map[string]any{"type": "string"}}, "required": []any{"city"}})}
	scenarioTime = &api.ToolDeclaration{Name: "get_time", Description: "Returns the current time in a city.",
		Parameters: mustStruct(map[string]any{"type": "object",
			"properties": map[string]any{"city": map[string]any{"type": "string"}}, "required": []any{"city"}})}
)

// scenarioTurns is a scenario's turns.json.
type scenarioTurns struct {
	State     map[string]any `json:"state"`
	UserID    string         `json:"user_id"`
	SessionID string         `json:"session_id"`
	Turns     []string       `json:"turns"`
	Streaming string         `json:"streaming"`
}

// scenarioProvider is a scenario's provider.json.
type scenarioProvider struct {
	Provider  string            `json:"provider"`
	Responses []json.RawMessage `json:"responses"`
}

func TestLiteLLMScenariosOpenAI(t *testing.T) {
	t.Parallel()
	runScenarios(t, "openai_")
}

func TestLiteLLMScenariosAnthropic(t *testing.T) {
	t.Parallel()
	runScenarios(t, "anthropic_")
}

// TestClaudeScenarios replays the scenarios of ADK's Claude class: Claude
// on Vertex AI, authenticated through Google credentials whose token
// endpoint is the fake's.
func TestClaudeScenarios(t *testing.T) {
	t.Parallel()
	runScenarios(t, "claude_")
}

// queueProviderReplies queues a scenario's recorded answers on the fake of
// its provider and returns the environment that points agentsvc there.
func queueProviderReplies(t *testing.T, fake *fakegemini.Server, dir string, provider scenarioProvider, url string) []string {
	t.Helper()
	env := []string{"GOOGLE_API_KEY=", "GEMINI_API_KEY=", "GOOGLE_GENAI_USE_VERTEXAI=", "GOOGLE_GEMINI_BASE_URL=",
		"OPENAI_API_KEY=sk-test", "OPENAI_BASE_URL=", "OPENAI_API_BASE=",
		"ANTHROPIC_API_KEY=sk-ant-test", "ANTHROPIC_API_BASE=", "ANTHROPIC_BASE_URL="}
	switch provider.Provider {
	case "openai":
		replies := make([]fakegemini.ProviderReply, len(provider.Responses))
		for i, raw := range provider.Responses {
			if err := json.Unmarshal(raw, &replies[i]); err != nil {
				t.Fatalf("provider.json: responses[%d]: %v", i, err)
			}
		}
		if err := fake.EnqueueOpenAI(replies...); err != nil {
			t.Fatal(err)
		}
	case "anthropic":
		replies := make([]fakegemini.AnthropicReply, len(provider.Responses))
		for i, raw := range provider.Responses {
			if err := json.Unmarshal(raw, &replies[i]); err != nil {
				t.Fatalf("provider.json: responses[%d]: %v", i, err)
			}
		}
		fake.Anthropic().Enqueue(replies...)
		creds := filepath.Join(t.TempDir(), "credentials.json")
		file := fmt.Sprintf(`{"type":"authorized_user","client_id":"c","client_secret":"s","refresh_token":"r","token_uri":%q}`, url+"/token")
		if err := os.WriteFile(creds, []byte(file), 0o600); err != nil {
			t.Fatal(err)
		}
		env = append(env, "GOOGLE_CLOUD_PROJECT=fake-project", "GOOGLE_CLOUD_LOCATION=us-east5",
			"ANTHROPIC_VERTEX_BASE_URL="+url+"/v1", "GOOGLE_APPLICATION_CREDENTIALS="+creds)
	default:
		t.Skipf("%s: provider %q is not served", filepath.Base(dir), provider.Provider)
	}
	return env
}

// providerRequests are the requests the fake's provider routes received,
// in the form of the recordings' requests.json.
func providerRequests(fake *fakegemini.Server, provider string) []map[string]any {
	var out []map[string]any
	if provider == "anthropic" {
		for _, r := range fake.Anthropic().Requests() {
			out = append(out, map[string]any{"method": r.Method, "path": r.Path, "body": r.Body})
		}
		return out
	}
	for _, r := range fake.Requests() {
		if r.Method == "chat.completions" {
			out = append(out, map[string]any{"method": "POST", "path": r.Path, "body": r.Body})
		}
	}
	return out
}

// runScenarios replays every scenario whose name starts with prefix: the
// provider's recorded answers are served by the fake, the turns run
// through agentsvc with the app, and the provider requests and the stored
// session must equal adk-python's.
func runScenarios(t *testing.T, prefix string) {
	dir := os.Getenv("LITELLM_SCENARIOS")
	if dir == "" {
		dir = scenarioDir
	}
	matches, _ := filepath.Glob(filepath.Join(dir, prefix+"*"))
	var scenarios []string
	for _, m := range matches {
		if fi, err := os.Stat(m); err == nil && fi.IsDir() {
			scenarios = append(scenarios, m)
		}
	}
	if len(scenarios) == 0 {
		t.Skipf("no recorded scenarios %s* under %s: record them with its gen.py", prefix, dir)
	}
	for _, sc := range scenarios {
		t.Run(filepath.Base(sc), func(t *testing.T) {
			t.Parallel()
			replayScenario(t, sc)
		})
	}
}

func readJSON(t *testing.T, file string, v any) bool {
	t.Helper()
	b, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return false
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return true
}

func replayScenario(t *testing.T, dir string) {
	var turns scenarioTurns
	var provider scenarioProvider
	var wantRequests []map[string]any
	var wantSession map[string]any
	readJSON(t, filepath.Join(dir, "turns.json"), &turns)
	readJSON(t, filepath.Join(dir, "provider.json"), &provider)
	readJSON(t, filepath.Join(dir, "requests.json"), &wantRequests)
	hasSession := readJSON(t, filepath.Join(dir, "session.json"), &wantSession)
	fake := fakegemini.New()
	srv := httptest.NewServer(fake.Handler())
	t.Cleanup(srv.Close)
	env := queueProviderReplies(t, fake, dir, provider, srv.URL)
	appName, _ := wantSession["appName"].(string)
	if appName == "" {
		appName = "app"
	}
	agents := t.TempDir()
	yaml := copyApp(t, filepath.Join(dir, "app"), filepath.Join(agents, appName), srv.URL)
	var tools []*api.ToolDeclaration
	for _, d := range []*api.ToolDeclaration{scenarioWeather, scenarioTime} {
		if strings.Contains(yaml, "tools."+d.GetName()) {
			tools = append(tools, d)
		}
	}

	_, m := start(t, svcReady, env, bins.agentsvc, "serve", "--agents", agents, "--grpc-addr", "127.0.0.1:0", "--http-addr", "127.0.0.1:0")
	grpcAddr, httpURL := m[1], "http://"+m[2]
	conn, err := grpc.NewClient(grpcAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	ctx, cancel := context.WithTimeout(t.Context(), 120*time.Second)
	defer cancel()

	state, err := structpb.NewStruct(turns.State)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := api.NewSessionServiceClient(conn).CreateSession(ctx, &api.CreateSessionRequest{AppName: appName,
		UserId: turns.UserID, SessionId: turns.SessionID, State: state}); err != nil {
		t.Fatal(err)
	}
	var runErr error
	var streamed []any
	for _, text := range turns.Turns {
		var events []any
		events, runErr = runScenarioTurn(ctx, conn, appName, turns, text, tools)
		streamed = append(streamed, events...)
		if runErr != nil {
			break
		}
	}
	var wantStream []any
	if readJSON(t, filepath.Join(dir, "stream.json"), &wantStream) {
		want := withoutKnownDifferences(normalise(map[string]any{"events": wantStream}, nil))
		got := withoutKnownDifferences(normalise(map[string]any{"events": streamed}, nil))
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("streamed events (-adk-python +agentsvc):\n%s", d)
		}
	}
	var wantError map[string]any
	if readJSON(t, filepath.Join(dir, "error.json"), &wantError) {
		msg, _ := wantError["message"].(string)
		if runErr == nil || !strings.Contains(runErr.Error(), msg) {
			t.Errorf("the run ended with %v; adk-python failed with %v", runErr, wantError)
		}
	} else if runErr != nil {
		t.Errorf("run: %v", runErr)
	}

	gotRequests := providerRequests(fake, provider.Provider)
	if d := cmp.Diff(normalise(wantRequests, requestsOnly), normalise(gotRequests, requestsOnly)); d != "" {
		t.Errorf("provider requests (-adk-python +agentsvc):\n%s", d)
	}
	if hasSession {
		got := getJSON(t, httpURL+"/apps/"+appName+"/users/"+turns.UserID+"/sessions/"+turns.SessionID)
		if d := cmp.Diff(withoutKnownDifferences(normalise(wantSession, nil)), withoutKnownDifferences(normalise(got, nil))); d != "" {
			t.Errorf("session (-adk-python +agentsvc):\n%s", d)
		}
	}
}

// requestsOnly keeps a recorded request's method, path and body.
var requestsOnly = map[string]bool{"headers": true}

// copyApp copies a scenario's app, its provider URL replaced by url, and
// returns the text of its files.
func copyApp(t *testing.T, from, to, url string) string {
	t.Helper()
	var all strings.Builder
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		all.Write(b)
		return os.WriteFile(dst, []byte(strings.ReplaceAll(string(b), fakeProviderURL, url)), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return all.String()
}

// runScenarioTurn runs one user message over Connect, answering the
// scenario tools' calls as tools.py does, and returns the events it
// streamed as JSON.
func runScenarioTurn(ctx context.Context, conn *grpc.ClientConn, app string, turns scenarioTurns, text string,
	tools []*api.ToolDeclaration) ([]any, error) {
	stream, err := api.NewRunnerServiceClient(conn).Connect(ctx)
	if err != nil {
		return nil, err
	}
	var events []any
	err = stream.Send(&api.ConnectRequest{Kind: &api.ConnectRequest_Start{Start: &api.StartRun{
		Run: &api.RunRequest{AppName: app, UserId: turns.UserID, SessionId: turns.SessionID, Streaming: turns.Streaming == "sse",
			NewMessage: &v1.Content{Role: "user", Parts: []*v1.Part{{Text: text}}}},
		Tools: tools,
	}}})
	if err != nil {
		return nil, err
	}
	for {
		msg, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return events, nil
		}
		if err != nil {
			return events, err
		}
		if ev := msg.GetEvent(); ev != nil {
			b, err := protojson.Marshal(ev)
			if err != nil {
				return events, err
			}
			var m map[string]any
			if err := json.Unmarshal(b, &m); err != nil {
				return events, err
			}
			events = append(events, m)
		}
		c := msg.GetToolCall()
		if c == nil {
			continue
		}
		city := c.GetFunctionCall().GetArgs().GetFields()["city"].GetStringValue()
		result := map[string]any{"city": city, "forecast": "sunny"}
		if c.GetFunctionCall().GetName() == "get_time" {
			result = map[string]any{"city": city, "time": "10:00"}
		}
		v, _ := structpb.NewValue(result)
		if err := stream.Send(&api.ConnectRequest{Kind: &api.ConnectRequest_ToolResult{ToolResult: &api.ToolResult{
			CallId: c.GetCallId(), Response: v}}}); err != nil {
			return events, err
		}
	}
}

func getJSON(t *testing.T, url string) map[string]any {
	t.Helper()
	resp, err := http.Get(url) //nolint:gosec,noctx // the test's own server.
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

// idKeys are the keys whose values are ids made anew by every run, by the
// kind of id they hold.
var idKeys = map[string]string{"id": "id", "invocationId": "invocation", "invocation_id": "invocation",
	"tool_call_id": "call", "functionCallId": "call", "function_call_id": "call"}

// timeKeys hold timestamps.
var timeKeys = map[string]bool{"timestamp": true, "lastUpdateTime": true, "last_update_time": true, "created": true}

var uuidLike = regexp.MustCompile(`adk-[0-9a-f-]{36}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// normalise returns v with ids renamed by first appearance ("<kind>-<n>"),
// whatever names a recording gave them, timestamps zeroed and the keys of
// drop removed, so that two runs compare equal when only those differ.
func normalise(v any, drop map[string]bool) any {
	b, _ := json.Marshal(v)
	var x any
	_ = json.Unmarshal(b, &x)
	seen := map[string]string{}
	name := func(kind, id string) string {
		if id == "" {
			return id
		}
		key := kind + "\x00" + id
		if n, ok := seen[key]; ok {
			return n
		}
		n := fmt.Sprintf("%s-%d", kind, countKind(seen, kind)+1)
		seen[key] = n
		return n
	}
	var walk func(any, string) any
	walk = func(x any, key string) any {
		switch t := x.(type) {
		case map[string]any:
			keys := make([]string, 0, len(t))
			for k := range t {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if drop[k] {
					delete(t, k)
					continue
				}
				t[k] = walk(t[k], k)
			}
			return t
		case []any:
			for i := range t {
				t[i] = walk(t[i], key)
			}
			return t
		case string:
			if kind, ok := idKeys[key]; ok {
				return name(kind, t)
			}
			return uuidLike.ReplaceAllStringFunc(t, func(s string) string { return name("uuid", s) })
		case float64:
			if timeKeys[key] {
				return 0.0
			}
		}
		return x
	}
	return walk(x, "")
}

func countKind(seen map[string]string, kind string) int {
	n := 0
	for k := range seen {
		if strings.HasPrefix(k, kind+"\x00") {
			n++
		}
	}
	return n
}

// withoutKnownDifferences removes from a session what agentsvc's REST
// session JSON leaves out where adk-python 1.39.1 writes an empty or zero
// value: an event's empty actions maps (artifactDelta, stateDelta,
// requestedAuthConfigs, requestedToolConfirmations), its empty
// longRunningToolIds, and a cachedContentTokenCount of 0 (an int32 the
// API does not tell from unset).
func withoutKnownDifferences(v any) any {
	session, _ := v.(map[string]any)
	events, _ := session["events"].([]any)
	for _, e := range events {
		ev, _ := e.(map[string]any)
		if ids, ok := ev["longRunningToolIds"].([]any); ok && len(ids) == 0 {
			delete(ev, "longRunningToolIds")
		}
		if actions, ok := ev["actions"].(map[string]any); ok {
			for k, a := range actions {
				if m, ok := a.(map[string]any); ok && len(m) == 0 {
					delete(actions, k)
				}
			}
		}
		if u, ok := ev["usageMetadata"].(map[string]any); ok && u["cachedContentTokenCount"] == 0.0 {
			delete(u, "cachedContentTokenCount")
		}
	}
	return v
}
