package server_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/integration/fakegemini"
)

// everythingServer is the entry point of npm's
// @modelcontextprotocol/server-everything, installed by scripts/with-mcp.sh.
func everythingServer(t *testing.T) string {
	t.Helper()
	entry := os.Getenv("AGENTSVC_TEST_MCP_EVERYTHING")
	if entry == "" {
		t.Skip("AGENTSVC_TEST_MCP_EVERYTHING is not set; run under scripts/with-mcp.sh")
	}
	return entry
}

// mcpApp is an agent with the reference server's tools, filtered and
// prefixed, reached as connection says.
func mcpApp(connection string) fstest.MapFS {
	return fstest.MapFS{geminiApp + "/root_agent.yaml": {Data: []byte(`name: root
model: gemini-2.5-flash
instruction: Use the tools.
tools:
  - name: MCPToolset
    args:
` + connection + `
      tool_filter: [echo, get-tiny-image, get-sum, trigger-long-running-operation, get-structured-content]
      tool_name_prefix: every
`)}}
}

// stdioConnection runs the reference server over stdio; mark makes its
// command line unique to the test.
func stdioConnection(entry, mark string) string {
	return fmt.Sprintf(`      stdio_connection_params:
        server_params: {command: node, args: [%q, stdio, %q]}
        timeout: 30`, entry, mark)
}

// calls is a model answer calling one function.
func calls(name string, args map[string]any) fakegemini.Item {
	return fakegemini.Item{Response: map[string]any{"candidates": []any{map[string]any{
		"content": map[string]any{"role": "model", "parts": []any{map[string]any{
			"functionCall": map[string]any{"name": name, "args": args}}}},
		"finishReason": "STOP",
	}}}}
}

// says is a model answer with text.
func says(text string) fakegemini.Item {
	return fakegemini.Item{Response: map[string]any{"candidates": []any{map[string]any{
		"content":      map[string]any{"role": "model", "parts": []any{map[string]any{"text": text}}},
		"finishReason": "STOP",
	}}}}
}

// mcpDeclarations are the declarations google-adk 1.39.1 sends Gemini for
// the filtered, prefixed tools of server-everything 2026.8.31 (probed with
// a recording model), in the server's order. One difference is left: ADK
// sends get-tiny-image's empty "properties": {}, which the Go genai SDK
// omits (the same schema to Gemini).
const mcpDeclarations = `[
 {"description": "Echoes back the input string", "name": "every_echo", "parameters": {"properties": {"message": {"description": "Message to echo", "type": "STRING"}}, "required": ["message"], "type": "OBJECT"}},
 {"description": "Returns structured content along with an output schema for client data validation", "name": "every_get-structured-content", "parameters": {"properties": {"location": {"description": "Choose city", "enum": ["New York", "Chicago", "Los Angeles"], "type": "STRING"}}, "required": ["location"], "type": "OBJECT"}},
 {"description": "Returns the sum of two numbers", "name": "every_get-sum", "parameters": {"properties": {"a": {"description": "First number", "type": "NUMBER"}, "b": {"description": "Second number", "type": "NUMBER"}}, "required": ["a", "b"], "type": "OBJECT"}},
 {"description": "Returns a tiny MCP logo image.", "name": "every_get-tiny-image", "parameters": {"type": "OBJECT"}},
 {"description": "Demonstrates a long running operation with progress updates.", "name": "every_trigger-long-running-operation", "parameters": {"properties": {"duration": {"default": 10, "description": "Duration of the operation in seconds", "type": "NUMBER"}, "steps": {"default": 5, "description": "Number of steps in the operation", "type": "NUMBER"}}, "type": "OBJECT"}}
]`

// TestMCPToolsetStdio: the tools of a real third-party MCP server, run
// over stdio, are declared to Gemini as google-adk declares them, and
// their results (text, an image, a validation error, structured content)
// reach the model as ADK's McpTool renders them. Every call of the two
// invocations goes to one server process.
func TestMCPToolsetStdio(t *testing.T) {
	t.Parallel()
	entry := everythingServer(t)
	mark := "mark-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	s := newGeminiAppStack(t, mcpApp(stdioConnection(entry, mark)))
	s.enqueue(t, calls("every_echo", map[string]any{"message": "hi"}), calls("every_get-tiny-image", map[string]any{}),
		calls("every_get-sum", map[string]any{"a": "x"}), says("Done."),
		calls("every_get-structured-content", map[string]any{"location": "New York"}), says("Cloudy."))
	sid := s.newSession(t)
	for _, text := range []string{"Go.", "Weather?"} {
		if _, err := s.run(t.Context(), sid, text, false); err != nil {
			t.Fatal(err)
		}
	}

	reqs := s.fake.Requests()
	if len(reqs) != 6 {
		t.Fatalf("%d model requests, want 6", len(reqs))
	}
	var want any
	if err := json.Unmarshal([]byte(mcpDeclarations), &want); err != nil {
		t.Fatal(err)
	}
	got := reqs[0].Body["tools"].([]any)[0].(map[string]any)["functionDeclarations"]
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("declarations (-adk +agentsvc):\n%s", diff)
	}
	responses := functionResponses(reqs[5].Body)
	wantResponses := []string{
		`{"content":[{"type":"text","text":"Echo: hi"}],"isError":false}`,
		"", // the image, checked below
		`{"content":[{"type":"text","text":"MCP error -32602: Input validation error: Invalid arguments for tool get-sum: Invalid input: expected number, received string at a\nInvalid input: expected number, received undefined at b"}],"isError":true}`,
		`{"content":[{"type":"text","text":"{\"temperature\":33,\"conditions\":\"Cloudy\",\"humidity\":82}"}],"structuredContent":{"temperature":33,"conditions":"Cloudy","humidity":82},"isError":false}`,
	}
	if len(responses) != len(wantResponses) {
		t.Fatalf("function responses %v, want %d", responses, len(wantResponses))
	}
	for i, w := range wantResponses {
		if w == "" {
			continue
		}
		var wm any
		if err := json.Unmarshal([]byte(w), &wm); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(wm, responses[i]); diff != "" {
			t.Errorf("response %d (-adk +agentsvc):\n%s", i, diff)
		}
	}
	image := responses[1].(map[string]any)["content"].([]any)
	if len(image) != 3 || image[1].(map[string]any)["type"] != "image" || image[1].(map[string]any)["mimeType"] != "image/png" ||
		!strings.HasPrefix(image[1].(map[string]any)["data"].(string), "iVBORw0KGgo") {
		t.Errorf("image response = %v", image)
	}
	if pids := markedProcesses(t, mark); len(pids) != 1 {
		t.Errorf("server processes after two invocations = %v, want one", pids)
	}
}

// TestMCPToolsetServerKilledMidCall: a stdio server killed during a call,
// and again during the retry ADK makes on a fresh process, gives the model
// ADK's error response; the session stays whole and the next call starts
// the server again and works.
func TestMCPToolsetServerKilledMidCall(t *testing.T) {
	t.Parallel()
	entry := everythingServer(t)
	mark := "mark-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	s := newGeminiAppStack(t, mcpApp(stdioConnection(entry, mark)))
	s.enqueue(t, calls("every_trigger-long-running-operation", map[string]any{"duration": 20, "steps": 2}), says("It failed."),
		calls("every_echo", map[string]any{"message": "again"}), says("Back."))
	sid := s.newSession(t)

	killed := make(chan []int, 1)
	go func() {
		// The call starts once the model answers, right after the server
		// lists its tools; each process dies well inside the 20 s call.
		var pids []int
		for len(pids) < 2 {
			pid := waitForNewProcess(mark, pids, 20*time.Second)
			if pid == 0 {
				break
			}
			time.Sleep(3 * time.Second)
			_ = syscall.Kill(pid, syscall.SIGKILL)
			pids = append(pids, pid)
		}
		killed <- pids
	}()
	events, err := s.run(t.Context(), sid, "Run it.", false)
	if err != nil {
		t.Fatal(err)
	}
	if pids := <-killed; len(pids) != 2 {
		t.Fatalf("killed %v, want two processes", pids)
	}
	var resp *v1.FunctionResponse
	for _, e := range events {
		for _, p := range e.GetContent().GetParts() {
			if p.GetFunctionResponse() != nil {
				resp = p.GetFunctionResponse()
			}
		}
	}
	// The connection closes mid-call; on a busy machine the retry's process
	// may die while it starts, which ADK words as unexpected.
	got, _ := resp.GetResponse().AsMap()["error"].(string)
	if got != "MCP tool execution failed: Connection closed" && !strings.HasPrefix(got, "Unexpected error during MCP tool execution: Failed to create MCP session: ") {
		t.Errorf("response = %v", resp.GetResponse().AsMap())
	}

	events, err = s.run(t.Context(), sid, "Again.", false)
	if err != nil {
		t.Fatal(err)
	}
	if got := events[1].GetContent().GetParts()[0].GetFunctionResponse().GetResponse().AsMap(); !cmp.Equal(got,
		map[string]any{"content": []any{map[string]any{"type": "text", "text": "Echo: again"}}, "isError": false}) {
		t.Errorf("next call = %v", got)
	}
	if n := len(s.storedEvents(t, sid)); n != 8 {
		t.Errorf("%d stored events, want 8", n)
	}
}

// TestMCPToolsetOverHTTP: the reference server served over streamable
// HTTP and over SSE, its tools listed and called.
func TestMCPToolsetOverHTTP(t *testing.T) {
	t.Parallel()
	entry := everythingServer(t)
	for _, tt := range []struct{ transport, field, path string }{
		{"streamableHttp", "streamable_http_connection_params", "/mcp"},
		{"sse", "sse_connection_params", "/sse"},
	} {
		t.Run(tt.transport, func(t *testing.T) {
			t.Parallel()
			url := startHTTPServer(t, entry, tt.transport) + tt.path
			s := newGeminiAppStack(t, mcpApp(fmt.Sprintf("      %s: {url: %q, headers: {X-Test: yes}}", tt.field, url)))
			s.enqueue(t, calls("every_echo", map[string]any{"message": "over http"}), says("Done."))
			sid := s.newSession(t)
			if _, err := s.run(t.Context(), sid, "Go.", false); err != nil {
				t.Fatal(err)
			}
			reqs := s.fake.Requests()
			got := functionResponses(reqs[len(reqs)-1].Body)
			want := []any{map[string]any{"content": []any{map[string]any{"type": "text", "text": "Echo: over http"}}, "isError": false}}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("responses (-want +got):\n%s", diff)
			}
		})
	}
}

// functionResponses are the responses of a Gemini request body's contents.
func functionResponses(body map[string]any) []any {
	var out []any
	for _, c := range body["contents"].([]any) {
		for _, p := range c.(map[string]any)["parts"].([]any) {
			if fr, ok := p.(map[string]any)["functionResponse"].(map[string]any); ok {
				out = append(out, fr["response"])
			}
		}
	}
	return out
}

// markedProcesses are the pids whose command line holds mark.
func markedProcesses(t *testing.T, mark string) []int {
	t.Helper()
	dirs, err := filepath.Glob("/proc/[0-9]*/cmdline")
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, d := range dirs {
		b, err := os.ReadFile(d)
		if err != nil || !strings.Contains(string(b), mark) {
			continue
		}
		if pid, err := strconv.Atoi(filepath.Base(filepath.Dir(d))); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// waitForNewProcess waits for a marked process not in seen; 0 when none
// comes in time.
func waitForNewProcess(mark string, seen []int, timeout time.Duration) int {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		dirs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
		for _, d := range dirs {
			b, err := os.ReadFile(d)
			if err != nil || !strings.Contains(string(b), mark) {
				continue
			}
			pid, err := strconv.Atoi(filepath.Base(filepath.Dir(d)))
			if err == nil && !containsPid(seen, pid) {
				return pid
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	return 0
}

func containsPid(pids []int, pid int) bool {
	for _, p := range pids {
		if p == pid {
			return true
		}
	}
	return false
}

// startHTTPServer runs the reference server on a free loopback port until
// the test ends and returns its base URL.
func startHTTPServer(t *testing.T, entry, transport string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command("node", entry, transport)
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if strings.Contains(sc.Text(), strconv.Itoa(port)) {
				close(ready)
				break
			}
		}
		for sc.Scan() {
		}
	}()
	select {
	case <-ready:
	case <-time.After(30 * time.Second):
		t.Fatal("the MCP server did not start")
	}
	return "http://127.0.0.1:" + strconv.Itoa(port)
}
