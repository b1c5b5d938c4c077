package integration

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/integration/fakegemini"
)

// rpcStep is one line of testdata/a2a/rpc_checks.py: what the server
// answered a step with.
type rpcStep struct {
	Step        string          `json:"step"`
	Result      json.RawMessage `json:"result"`
	Code        int             `json:"code"`
	Message     string          `json:"message"`
	Status      int             `json:"status"`
	ContentType string          `json:"content_type"`
	Answer      struct {
		ID    any `json:"id"`
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
			Data    []struct {
				Type string `json:"type"`
				Loc  []any  `json:"loc"`
				Msg  string `json:"msg"`
			} `json:"data"`
		} `json:"error"`
		Result json.RawMessage `json:"result"`
	} `json:"answer"`
}

// rpcChecks runs rpc_checks.py against an app's A2A endpoint and returns
// its steps by name.
func rpcChecks(t *testing.T, s *stack, app string, args ...string) map[string]rpcStep {
	t.Helper()
	python := os.Getenv("AGENTSVC_TEST_A2A_PYTHON")
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, python, append([]string{"testdata/a2a/rpc_checks.py", s.httpURL + "/a2a/" + app},
		args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("rpc_checks.py %v: %v\n%s", args, err, out)
	}
	steps := map[string]rpcStep{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var st rpcStep
		if json.Unmarshal([]byte(line), &st) == nil && st.Step != "" {
			steps[st.Step] = st
		}
	}
	return steps
}

func needA2APython(t *testing.T) {
	t.Helper()
	if os.Getenv("AGENTSVC_TEST_A2A_PYTHON") == "" {
		t.Skip("AGENTSVC_TEST_A2A_PYTHON is not set (scripts/with-a2a-venv.sh sets it)")
	}
}

// restSessions lists a user's sessions of an app over REST.
func restSessions(t *testing.T, s *stack, app, user string) string {
	t.Helper()
	resp, err := http.Get(s.httpURL + "/apps/" + app + "/users/" + user + "/sessions")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return strings.TrimSpace(string(b))
}

// TestA2AEnvelopeAsA2ASDK: malformed JSON-RPC requests are answered as
// a2a-sdk's server answers them, with HTTP 200: a body that is no object
// (a batch included), a missing method or an id neither string nor integer
// is -32600 (Invalid Request) with pydantic's errors as data; params that
// are an array and an invalid message (no messageId, role "robot", an
// unknown part kind) are -32602 (Invalid params), over message/stream too;
// an unknown method -32601; a notification (no id) gets no answer (HTTP 204,
// as JSON-RPC 2.0 has it; a2a-sdk 0.3 answers it -32602 and an array
// -32600). None of them runs the model or stores a session.
func TestA2AEnvelopeAsA2ASDK(t *testing.T) {
	t.Parallel()
	needA2APython(t)
	s := startStack(t, map[string]string{"weather": weatherAgent}, "--a2a")
	steps := rpcChecks(t, s, "weather", "envelope", "bad")
	for _, tc := range []struct {
		step    string
		code    int
		id      any
		message string
		data    string // type@loc of the first data entry
	}{
		{"not an object", -32600, nil, "Request payload validation error", "model_type@"},
		{"batch", -32600, nil, "Request payload validation error", "model_type@"},
		{"missing method", -32600, float64(3), "Request payload validation error", "missing@method"},
		{"object id", -32600, nil, "Request payload validation error", "string_type@id.str"},
		{"fractional id", -32600, nil, "Request payload validation error", "string_type@id.str"},
		{"array params", -32602, float64(8), "Invalid parameters", "dict_type@params"},
		{"no messageId", -32602, float64(9), "Invalid parameters", "missing@params.message.messageId"},
		{"role robot", -32602, float64(10), "Invalid parameters", "enum@params.message.role"},
		{"unknown part kind", -32602, float64(6), "Invalid parameters", "literal_error@params.message.parts.0.TextPart.kind"},
		{"stream role robot", -32602, float64(7), "Invalid parameters", "enum@params.message.role"},
		{"unknown method", -32601, "u", "Method not found", ""},
	} {
		st, ok := steps[tc.step]
		if !ok {
			t.Errorf("%s: no answer", tc.step)
			continue
		}
		e := st.Answer.Error
		if st.Status != http.StatusOK || !strings.HasPrefix(st.ContentType, "application/json") || e == nil || st.Answer.Result != nil {
			t.Errorf("%s: HTTP %d %s, answer %+v", tc.step, st.Status, st.ContentType, st.Answer)
			continue
		}
		data := ""
		if len(e.Data) > 0 {
			var loc []string
			for _, l := range e.Data[0].Loc {
				b, _ := json.Marshal(l)
				loc = append(loc, strings.Trim(string(b), `"`))
			}
			data = e.Data[0].Type + "@" + strings.Join(loc, ".")
		}
		if e.Code != tc.code || e.Message != tc.message || st.Answer.ID != tc.id || data != tc.data {
			t.Errorf("%s: error %d %q id %v data %q, want %d %q id %v data %q", tc.step, e.Code, e.Message, st.Answer.ID, data,
				tc.code, tc.message, tc.id, tc.data)
		}
	}
	if st := steps["notification"]; st.Status != http.StatusNoContent || st.Answer.Error != nil || st.Answer.Result != nil {
		t.Errorf("notification: HTTP %d, answer %+v", st.Status, st.Answer)
	}
	if n := len(s.modelRequests(t)); n != 0 {
		t.Errorf("the model was called %d times", n)
	}
	for _, n := range []string{"1", "2", "4", "5", "6", "7", "9", "10"} {
		if got := restSessions(t, s, "weather", "A2A_USER_bad-"+n); got != "[]" {
			t.Errorf("context bad-%s stored sessions %s", n, got)
		}
	}
}

// TestA2ARequestMetadata: the metadata of message/send's params reaches
// every event of the run, the user's included, under "a2a_metadata" in its
// custom metadata, as ADK's request converter puts it; the task's metadata
// carries it as ADK 1.x writes a dict there (Python's str()).
func TestA2ARequestMetadata(t *testing.T) {
	t.Parallel()
	needA2APython(t)
	s := startStack(t, map[string]string{"weather": weatherAgent}, "--a2a")
	s.script(t, fakegemini.Text("Sunny."))
	steps := rpcChecks(t, s, "weather", "metadata", "meta-1")
	var task struct {
		Status   struct{ State string } `json:"status"`
		Metadata map[string]any         `json:"metadata"`
	}
	if err := json.Unmarshal(steps["send"].Result, &task); err != nil || task.Status.State != "completed" {
		t.Fatalf("send: %+v (%v)", steps["send"], err)
	}
	if got, want := task.Metadata["adk_custom_metadata"], "{'a2a_metadata': {'n': 2, 'trace': 't-1'}}"; got != want {
		t.Errorf("adk_custom_metadata = %#v, want %q", got, want)
	}
	resp, err := http.Get(s.httpURL + "/apps/weather/users/A2A_USER_meta-1/sessions/meta-1")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var sess struct {
		Events []struct {
			Author         string         `json:"author"`
			CustomMetadata map[string]any `json:"customMetadata"`
		} `json:"events"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&sess); err != nil || len(sess.Events) != 2 {
		t.Fatalf("session events %+v (%v)", sess, err)
	}
	for _, ev := range sess.Events {
		b, _ := json.Marshal(ev.CustomMetadata)
		if string(b) != `{"a2a_metadata":{"n":2,"trace":"t-1"}}` {
			t.Errorf("%s's custom metadata = %s", ev.Author, b)
		}
	}
}

// TestA2ACancel: in an ADK 2.x app tasks/cancel stops the running task,
// which a2a-sdk's client then reads as canceled, and the context takes
// the next message at once; cancelling it again is TaskNotCancelable
// (-32002) and an unknown task TaskNotFound (-32001), with a2a-sdk's
// texts. An ADK 1.x app answers a cancel with ADK 1.x's error.
func TestA2ACancel(t *testing.T) {
	t.Parallel()
	needA2APython(t)
	s := startStack(t, map[string]string{
		"slow":                  weatherAgent,
		"slow2/root_agent.yaml": weatherAgent,
		"slow2/app.yaml":        "adk_behavior: \"2.x\"\n",
	}, "--a2a")
	// The model never answers the first message, whenever its call comes.
	s.postScript(t, fakegemini.Script{Rules: []fakegemini.Rule{
		{Contains: "Take your time", Item: fakegemini.Item{Hang: true}},
		{Contains: "Again", Item: fakegemini.Item{Response: fakegemini.Text("Later.")}},
	}})
	steps := rpcChecks(t, s, "slow2", "cancel", "cancel-2")
	state := func(step string) string {
		var task struct {
			Status struct{ State string } `json:"status"`
		}
		_ = json.Unmarshal(steps[step].Result, &task)
		return task.Status.State
	}
	if state("cancel") != "canceled" || state("get") != "canceled" {
		t.Fatalf("cancel %+v, get %+v", steps["cancel"], steps["get"])
	}
	if st := steps["cancel again"]; st.Code != -32002 || st.Message != "Task cannot be canceled - current state: TaskState.canceled" {
		t.Errorf("cancel again: %+v", st)
	}
	if st := steps["cancel unknown"]; st.Code != -32001 || st.Message != "Task not found" {
		t.Errorf("cancel unknown: %+v", st)
	}
	if state("send again") != "completed" {
		t.Errorf("send again: %+v", steps["send again"])
	}

	steps = rpcChecks(t, s, "slow", "cancel", "cancel-1")
	if st := steps["cancel"]; st.Code != -32603 || st.Message != "Cancellation is not supported" {
		t.Errorf("1.x cancel: %+v", st)
	}
}

// TestA2AResubscribeFinished: tasks/resubscribe to a finished task is
// -32602 naming its terminal state, an unknown task -32001, as a2a-sdk's
// server answers them.
func TestA2AResubscribeFinished(t *testing.T) {
	t.Parallel()
	needA2APython(t)
	s := startStack(t, map[string]string{"weather": weatherAgent}, "--a2a")
	s.script(t, fakegemini.Text("Sunny."))
	steps := rpcChecks(t, s, "weather", "resubscribe", "resub-1")
	var task struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(steps["send"].Result, &task); err != nil || task.ID == "" {
		t.Fatalf("send: %+v", steps["send"])
	}
	if st := steps["finished"]; st.Code != -32602 || st.Message != "Task "+task.ID+" is in terminal state: completed" {
		t.Errorf("finished: %+v", st)
	}
	if st := steps["unknown"]; st.Code != -32001 || st.Message != "Task not found" {
		t.Errorf("unknown: %+v", st)
	}
}

// TestRemoteA2aAgentStreamsAsADK2: through /run_sse, an ADK 2.x app's
// RemoteA2aAgent streams the remote task as ADK 2.13's does: the task's
// first update (the user's message) and its working update as thoughts,
// the answer's artifact, and the closing status as an event of its own,
// each with its a2a: metadata; an ADK 1.x app yields the one answer of
// message/send, as ADK 1.39.1's does.
func TestRemoteA2aAgentStreamsAsADK2(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	card := "agent_class: RemoteA2aAgent\nname: forecast\nagent_card: http://" + addr + "/a2a/weather" + "/.well-known/agent-card.json\n"
	s := startStack(t, map[string]string{
		"weather":                weatherAgent,
		"front1/root_agent.yaml": card,
		"front2/root_agent.yaml": card,
		"front2/app.yaml":        "adk_behavior: \"2.x\"\n",
	}, "--a2a", "--http-addr", addr)
	for _, tc := range []struct {
		app  string
		want string
	}{
		{"front1", "Sunny."},
		{"front2", "(thought)Forecast? | (thought)Sunny. | (partial=false)Sunny. | "},
	} {
		s.script(t, fakegemini.Text("Sunny."))
		got := streamShapes(t, s, tc.app)
		if strings.Join(got, " | ") != tc.want {
			t.Errorf("%s streamed %q, want %q", tc.app, strings.Join(got, " | "), tc.want)
		}
	}
}

// TestRemoteA2aAgentUserInputParts: the parts a RemoteA2aAgent sends for
// the user's turn, as its events record them under a2a:request, carry
// is_user_input as ADK sets it; a function response that answers no call
// of the remote agent is a data part in ADK 1.39.1 and the text "Tool
// <name> returned: <JSON>" in ADK 2.13.
func TestRemoteA2aAgentUserInputParts(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	card := "agent_class: RemoteA2aAgent\nname: forecast\nagent_card: http://" + addr + "/a2a/weather/.well-known/agent-card.json\n"
	s := startStack(t, map[string]string{
		"weather":                weatherAgent,
		"front1/root_agent.yaml": card,
		"front2/root_agent.yaml": card,
		"front2/app.yaml":        "adk_behavior: \"2.x\"\n",
	}, "--a2a", "--http-addr", addr)
	for _, tc := range []struct{ app, want string }{
		{"front1", `[{"kind":"text","metadata":{"is_user_input":true},"text":"hi"},` +
			`{"data":{"id":"x","name":"lookup","response":{"a":1}},"kind":"data","metadata":{"adk_type":"function_response","is_user_input":true}}]`},
		{"front2", `[{"kind":"text","metadata":{"is_user_input":true},"text":"hi"},` +
			`{"kind":"text","metadata":{"is_user_input":true},"text":"Tool lookup returned: {\"a\": 1}"}]`},
	} {
		s.script(t, fakegemini.Text("Sunny."))
		resp, err := http.Post(s.httpURL+"/apps/"+tc.app+"/users/u/sessions", "application/json", strings.NewReader(`{"sessionId": "s1"}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		body := `{"appName": "` + tc.app + `", "userId": "u", "sessionId": "s1", "newMessage": {"role": "user", "parts": [` +
			`{"text": "hi"}, {"functionResponse": {"id": "x", "name": "lookup", "response": {"a": 1}}}]}}`
		resp, err = http.Post(s.httpURL+"/run", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		var events []struct {
			CustomMetadata struct {
				Request struct {
					Parts json.RawMessage `json:"parts"`
				} `json:"a2a:request"`
			} `json:"customMetadata"`
		}
		err = json.NewDecoder(resp.Body).Decode(&events)
		resp.Body.Close()
		if err != nil || len(events) == 0 {
			t.Fatalf("%s: events %v (%v)", tc.app, events, err)
		}
		var parts any
		_ = json.Unmarshal(events[0].CustomMetadata.Request.Parts, &parts)
		got, _ := json.Marshal(parts)
		if string(got) != tc.want {
			t.Errorf("%s: a2a:request parts\n%s\nwant\n%s", tc.app, got, tc.want)
		}
	}
}

// TestA2APartMetadata: the metadata of an incoming message's parts (as
// ADK's RemoteA2aAgent marks the user's parts is_user_input) is the stored
// user event's partMetadata in an ADK 2.x app, and goes with the part to
// the Gemini API, as ADK 2.13 keeps and sends it; an ADK 1.x app drops it
// as ADK 1.39.1 does.
func TestA2APartMetadata(t *testing.T) {
	t.Parallel()
	needA2APython(t)
	s := startStack(t, map[string]string{
		"weather":                  weatherAgent,
		"weather2/root_agent.yaml": weatherAgent,
		"weather2/app.yaml":        "adk_behavior: \"2.x\"\n",
	}, "--a2a")
	const meta2 = `[{"text":"Hi","partMetadata":{"is_user_input":true}},` +
		`{"text":"from the front","partMetadata":{"is_user_input":true,"source":{"hop":1}}}]`
	const meta1 = `[{"text":"Hi"},{"text":"from the front"}]`
	for _, tc := range []struct{ app, ctx, want string }{
		{"weather2", "pm-2", meta2},
		{"weather", "pm-1", meta1},
	} {
		s.script(t, fakegemini.Text("Sunny."))
		steps := rpcChecks(t, s, tc.app, "partmeta", tc.ctx)
		var task struct {
			Status struct{ State string } `json:"status"`
		}
		if err := json.Unmarshal(steps["send"].Result, &task); err != nil || task.Status.State != "completed" {
			t.Fatalf("%s send: %+v (%v)", tc.app, steps["send"], err)
		}
		resp, err := http.Get(s.httpURL + "/apps/" + tc.app + "/users/A2A_USER_" + tc.ctx + "/sessions/" + tc.ctx)
		if err != nil {
			t.Fatal(err)
		}
		var sess struct {
			Events []struct {
				Author  string `json:"author"`
				Content struct {
					Parts json.RawMessage `json:"parts"`
				} `json:"content"`
			} `json:"events"`
		}
		err = json.NewDecoder(resp.Body).Decode(&sess)
		resp.Body.Close()
		if err != nil || len(sess.Events) == 0 || sess.Events[0].Author != "user" {
			t.Fatalf("%s session events %+v (%v)", tc.app, sess, err)
		}
		if got := sortedJSON(t, sess.Events[0].Content.Parts); got != sortedJSON(t, []byte(tc.want)) {
			t.Errorf("%s: stored user parts\n%s\nwant\n%s", tc.app, got, tc.want)
		}
	}
	// The model requests in order: weather2's, then weather's.
	reqs := s.modelRequests(t)
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	for i, want := range []string{meta2, meta1} {
		contents, _ := reqs[i].Body["contents"].([]any)
		last, _ := contents[len(contents)-1].(map[string]any)
		b, _ := json.Marshal(last["parts"])
		if string(b) != sortedJSON(t, []byte(want)) {
			t.Errorf("model request %d: user parts\n%s\nwant\n%s", i, b, want)
		}
	}
}

// sortedJSON is b's JSON with its spacing removed and object keys sorted.
func sortedJSON(t *testing.T, b []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	out, _ := json.Marshal(v)
	return string(out)
}
