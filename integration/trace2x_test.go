package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// postJSON POSTs body to the stack's REST listener, as a span of the
// caller's in trace when it is not empty, and returns the answer, failing
// the test unless it is 200.
func postJSON(t *testing.T, ctx context.Context, s *stack, path, body, trace string) []byte {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, "POST", s.httpURL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if trace != "" {
		req.Header.Set("traceparent", "00-"+trace+"-"+callerSpan+"-01")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST %s: %d %s", path, resp.StatusCode, b)
	}
	return b
}

// TestTraceOf2xRunsOverREST: apps with adk_behavior "2.x" export the spans
// ADK 2.13 makes: the root's invoke_workflow instead of invocation,
// generate_content <model> instead of call_llm, invoke_node for a
// workflow's join; a 1.x app keeps ADK 1.x's (TestTraceOfARunOverREST).
func TestTraceOf2xRunsOverREST(t *testing.T) {
	t.Parallel()
	apps := map[string]string{
		"assistant2/root_agent.yaml": assistantAgent,
		"assistant2/app.yaml":        "adk_behavior: \"2.x\"\n",
	}
	files, err := filepath.Glob("../examples/trip_planner/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("example files: %v %v", files, err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		apps["trip_planner/"+filepath.Base(f)] = string(b)
	}
	rcv := startOTLPReceiver(t)
	s := startStackEnv(t, apps, []string{
		"OTEL_EXPORTER_OTLP_ENDPOINT=http://" + rcv.addr,
		"OTEL_EXPORTER_OTLP_PROTOCOL=grpc",
		"OTEL_BSP_SCHEDULE_DELAY=100",
	})
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()

	for _, tc := range []struct {
		app, root, trace string
		want             []string
	}{
		{"assistant2", "assistant", "4bf92f3577b34da6a3ce929d0e0e4701", []string{
			"caller > POST /run",
			"POST /run > invoke_workflow assistant",
			"invoke_workflow assistant > invoke_agent assistant",
			"invoke_agent assistant > generate_content gemini-2.5-flash",
		}},
		{"trip_planner", "trip_planner", "4bf92f3577b34da6a3ce929d0e0e4702", []string{
			"POST /run > invoke_workflow trip_planner",
			"caller > POST /run",
			"invoke_agent food > generate_content gemini-2.5-flash",
			"invoke_agent itinerary > generate_content gemini-2.5-flash",
			"invoke_agent outline > generate_content gemini-2.5-flash",
			"invoke_agent sights > generate_content gemini-2.5-flash",
			"invoke_workflow trip_planner > invoke_agent food",
			"invoke_workflow trip_planner > invoke_agent itinerary",
			"invoke_workflow trip_planner > invoke_agent outline",
			"invoke_workflow trip_planner > invoke_agent sights",
			"invoke_workflow trip_planner > invoke_node both",
		}},
	} {
		var sess struct{ ID string }
		if err := json.Unmarshal(postJSON(t, ctx, s, "/apps/"+tc.app+"/users/u1/sessions", "{}", ""), &sess); err != nil {
			t.Fatal(err)
		}
		body := fmt.Sprintf(`{"appName":%q,"userId":"u1","sessionId":%q,"newMessage":{"role":"user","parts":[{"text":"Lisbon"}]}}`,
			tc.app, sess.ID)
		postJSON(t, ctx, s, "/run", body, tc.trace)
		spans := rcv.trace(t, tc.trace, "POST /run")
		lines := spanLines(spans)
		if tc.app == "trip_planner" {
			// Two nodes run at once: their spans start in either order.
			slices.Sort(lines)
		}
		equalLines(t, tc.app+" span tree", lines, tc.want)
		checkAttrs(t, spans, "invoke_workflow "+tc.root, map[string]string{
			"gen_ai.operation.name":  "invoke_workflow",
			"gen_ai.workflow.name":   tc.root,
			"gen_ai.conversation.id": sess.ID,
		})
		for _, sp := range spans {
			if sp.Name == "invoke_node both" {
				got := spanAttrs(sp.Span)
				if got["gen_ai.operation.name"] != "invoke_node" || got["gen_ai.conversation.id"] != sess.ID ||
					len(got["gcp.vertex.agent.associated_event_ids"]) < 10 {
					t.Errorf("invoke_node both: %v", got)
				}
			}
			if strings.HasPrefix(sp.Name, "generate_content") {
				checkAttrs(t, []receivedSpan{sp}, sp.Name, map[string]string{
					"gen_ai.operation.name":  "generate_content",
					"gen_ai.request.model":   "gemini-2.5-flash",
					"gen_ai.provider.name":   "gcp.gemini",
					"gen_ai.conversation.id": sess.ID,
				})
			}
		}
	}
}
