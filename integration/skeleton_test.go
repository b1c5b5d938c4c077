package integration

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/protobuf/encoding/protojson"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
)

const weatherAgent = `name: weather_agent
model: gemini-2.5-flash
description: Answers questions about the weather.
instruction: You report the weather in a friendly tone.
`

// stack is a running fake Gemini server and agentsvc pointed at it.
type stack struct {
	fakeURL  string
	grpcAddr string
	httpURL  string
	svc      *process
	conn     *grpc.ClientConn
}

var (
	fakeReady = regexp.MustCompile(`listening on (http://\S+)`)
	svcReady  = regexp.MustCompile(`agentsvc serving"? grpc=(\S+) http=(\S+)`)
)

// startStack writes the apps into a directory and starts both processes.
func startStack(t *testing.T, apps map[string]string, extra ...string) *stack {
	t.Helper()
	return startStackEnv(t, apps, nil, extra...)
}

// startStackEnv is startStack with env added to agentsvc's environment.
func startStackEnv(t *testing.T, apps map[string]string, extraEnv []string, extra ...string) *stack {
	t.Helper()
	dir := t.TempDir()
	// A key is an app's name for its root_agent.yaml, or a file's path.
	for name, yaml := range apps {
		file := filepath.Join(dir, name, "root_agent.yaml")
		if strings.Contains(name, "/") {
			file = filepath.Join(dir, name)
		}
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, m := start(t, fakeReady, nil, bins.fakegemini, "--addr", "127.0.0.1:0")
	s := &stack{fakeURL: m[1]}
	args := append([]string{"serve", "--agents", dir, "--grpc-addr", "127.0.0.1:0", "--http-addr", "127.0.0.1:0",
		"--gemini-base-url", s.fakeURL}, extra...)
	env := append([]string{"GOOGLE_API_KEY=", "GEMINI_API_KEY=", "GOOGLE_GENAI_USE_VERTEXAI="}, extraEnv...)
	svc, m := start(t, svcReady, env, bins.agentsvc, args...)
	s.svc, s.grpcAddr, s.httpURL = svc, m[1], "http://"+m[2]
	conn, err := grpc.NewClient(s.grpcAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	s.conn = conn
	return s
}

// recordedRequest is what the fake Gemini server recorded of one call.
type recordedRequest struct {
	Model  string         `json:"model"`
	Stream bool           `json:"stream"`
	Body   map[string]any `json:"body"`
}

func (s *stack) modelRequests(t *testing.T) []recordedRequest {
	t.Helper()
	resp, err := http.Get(s.fakeURL + "/_fake/requests")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var reqs []recordedRequest
	if err := json.NewDecoder(resp.Body).Decode(&reqs); err != nil {
		t.Fatal(err)
	}
	return reqs
}

func systemInstruction(t *testing.T, body map[string]any) string {
	t.Helper()
	si, _ := body["systemInstruction"].(map[string]any)
	parts, _ := si["parts"].([]any)
	var texts []string
	for _, p := range parts {
		if m, ok := p.(map[string]any); ok {
			texts = append(texts, m["text"].(string))
		}
	}
	return strings.Join(texts, "")
}

func TestSkeletonRunOverGRPC(t *testing.T) {
	t.Parallel()
	s := startStack(t, map[string]string{"weather": weatherAgent})
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()

	health, err := healthpb.NewHealthClient(s.conn).Check(ctx, &healthpb.HealthCheckRequest{})
	if err != nil || health.Status != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("health = %v, %v; want SERVING", health, err)
	}

	sessions := api.NewSessionServiceClient(s.conn)
	created, err := sessions.CreateSession(ctx, &api.CreateSessionRequest{AppName: "weather", UserId: "u1"})
	if err != nil {
		t.Fatal(err)
	}
	sid := created.Session.Id

	stream, err := api.NewRunnerServiceClient(s.conn).Run(ctx, &api.RunRequest{
		AppName: "weather", UserId: "u1", SessionId: sid,
		NewMessage: &v1.Content{Parts: []*v1.Part{{Text: "Is it sunny in Paris?"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var events []*v1.Event
	for {
		resp, err := stream.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		events = append(events, resp.Event)
	}
	if len(events) != 1 {
		t.Fatalf("got %d events, want 1: %v", len(events), events)
	}
	final := events[0]
	var asJSON map[string]any
	b, _ := protojson.Marshal(final)
	if err := json.Unmarshal(b, &asJSON); err != nil {
		t.Fatal(err)
	}
	if asJSON["author"] != "weather_agent" {
		t.Errorf("author = %v, want weather_agent", asJSON["author"])
	}
	if id, _ := asJSON["invocationId"].(string); !strings.HasPrefix(id, "e-") {
		t.Errorf("invocationId = %q, want e- prefix", id)
	}
	if role := final.GetContent().GetRole(); role != "model" {
		t.Errorf("content.role = %q, want model", role)
	}
	if got := final.GetContent().GetParts()[0].GetText(); got != "Echo: Is it sunny in Paris?" {
		t.Errorf("answer = %q", got)
	}

	got, err := sessions.GetSession(ctx, &api.GetSessionRequest{AppName: "weather", UserId: "u1", SessionId: sid})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(got.Session.Events); n != 2 {
		t.Fatalf("stored events = %d, want 2 (user, answer)", n)
	}
	if u := got.Session.Events[0]; u.Author != "user" || u.InvocationId != final.InvocationId ||
		u.GetContent().GetParts()[0].GetText() != "Is it sunny in Paris?" {
		t.Errorf("first stored event = %v, want the user message", u)
	}
	if got.Session.Events[1].Id != final.Id {
		t.Errorf("second stored event id = %q, want %q", got.Session.Events[1].Id, final.Id)
	}

	reqs := s.modelRequests(t)
	if len(reqs) != 1 {
		t.Fatalf("model requests = %d, want 1", len(reqs))
	}
	want := "You report the weather in a friendly tone.\n\n" +
		`You are an agent. Your internal name is "weather_agent". The description about you is "Answers questions about the weather.".`
	if si := systemInstruction(t, reqs[0].Body); si != want {
		t.Errorf("system instruction =\n%q\nwant\n%q", si, want)
	}
	contents, _ := reqs[0].Body["contents"].([]any)
	if len(contents) != 1 {
		t.Errorf("contents = %v, want the user message only", contents)
	}
}

func TestSkeletonREST(t *testing.T) {
	t.Parallel()
	s := startStack(t, map[string]string{"weather": weatherAgent, "other": strings.ReplaceAll(weatherAgent, "weather_agent", "other_agent")})

	resp, err := http.Get(s.httpURL + "/list-apps")
	if err != nil {
		t.Fatal(err)
	}
	var apps []string
	if err := json.NewDecoder(resp.Body).Decode(&apps); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if strings.Join(apps, ",") != "other,weather" {
		t.Errorf("/list-apps = %v, want [other weather]", apps)
	}

	resp, err = http.Post(s.httpURL+"/apps/weather/users/u2/sessions", "application/json", strings.NewReader(`{"state": {"city": "Paris"}}`))
	if err != nil {
		t.Fatal(err)
	}
	var sess map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&sess); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	sid, _ := sess["id"].(string)
	if resp.StatusCode != 200 || sid == "" {
		t.Fatalf("create session: %d %v", resp.StatusCode, sess)
	}

	body := `{"appName": "weather", "userId": "u2", "sessionId": "` + sid + `",
		"newMessage": {"role": "user", "parts": [{"text": "Hello"}]}, "streaming": false}`
	resp, err = http.Post(s.httpURL+"/run", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var events []map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&events); err != nil {
		t.Fatalf("/run body is not a JSON array: %v", err)
	}
	if resp.StatusCode != 200 || len(events) != 1 {
		t.Fatalf("/run = %d with %d events, want 200 with 1", resp.StatusCode, len(events))
	}
	if events[0]["author"] != "weather_agent" {
		t.Errorf("author = %v", events[0]["author"])
	}

	resp, err = http.Post(s.httpURL+"/run", "application/json",
		strings.NewReader(`{"appName": "weather", "userId": "u2", "sessionId": "missing", "newMessage": {"parts": [{"text": "x"}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("/run on a missing session = %d, want 404", resp.StatusCode)
	}
}
