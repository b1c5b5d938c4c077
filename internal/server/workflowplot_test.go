package server_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// plotApps are 2.x apps whose build_graph_image google-adk 2.13 drew for
// the same agents (the goldens in testdata): the trip_planner example, a
// workflow of function, agent and tool nodes with routes and no default,
// and an LLM agent tree; desk1 is a 1.x app.
func plotApps(t *testing.T) fstest.MapFS {
	t.Helper()
	app := fstest.MapFS{
		"triage/root_agent.yaml": {Data: []byte(`agent_class: Workflow
name: triage
nodes:
  - {name: classify, function: classify}
  - {name: refund, function: refund}
  - {name: escalate, function: escalate}
  - {name: helper, config_path: helper.yaml}
  - {name: weather, tool: {name: get_weather}}
edges:
  - [START, classify, {refund: refund, urgent: escalate}]
  - [refund, helper]
  - [escalate, weather]
`)},
		"triage/helper.yaml":    {Data: []byte("name: helper\nmodel: gemini-2.5-flash\ninstruction: x\ntools:\n  - name: get_weather\n")},
		"desk2/app.yaml":        {Data: []byte("adk_behavior: \"2.x\"\n")},
		"desk2/root_agent.yaml": {Data: []byte("name: desk_agent\nmodel: gemini-2.5-flash\ninstruction: x\ntools:\n  - name: get_weather\nsub_agents:\n  - config_path: helper.yaml\n")},
		"desk2/helper.yaml":     {Data: []byte("name: helper\nmodel: gemini-2.5-flash\ndescription: h\ninstruction: x\ntools:\n  - name: send_mail\n")},
		"desk1/root_agent.yaml": {Data: []byte("name: desk_agent\nmodel: gemini-2.5-flash\ninstruction: x\ntools:\n  - name: get_weather\n")},
	}
	return exampleApp(t, "trip_planner", app)
}

// TestBuildGraphImage2x: a 2.x app's build_graph_image is the DOT ADK 2.13
// plots (top to bottom, rounded rectangles with its icons, vee arrowheads,
// START and END around a workflow), byte for byte; a 1.x app keeps ADK's
// agent_graph (left to right, ellipses).
func TestBuildGraphImage2x(t *testing.T) {
	t.Parallel()
	apps := plotApps(t)
	stacks := map[string]*restStack{}
	for _, name := range []string{"trip_planner", "triage", "desk2", "desk1"} {
		one := fstest.MapFS{}
		for f, data := range apps {
			if strings.HasPrefix(f, name+"/") {
				one[f] = data
			}
		}
		s := &restStack{fixture: newFixture(t, withoutGRPC(), withApp(one))}
		s.http = s.serveHTTP(t)
		stacks[name] = s
	}
	// stack serves the app a path names.
	stack := func(path string) *restStack { return stacks[strings.Split(path, "/")[3]] }
	for _, tc := range []struct{ path, golden string }{
		{"/dev/apps/trip_planner/build_graph_image", "trip_planner"},
		{"/dev/apps/trip_planner/build_graph_image?dark_mode=true", "trip_planner-dark"},
		{"/dev/apps/trip_planner/build_graph_image?node=trip_planner", "trip_planner"},
		{"/dev/apps/triage/build_graph_image?dark_mode=false", "triage"},
		{"/dev/apps/desk2/build_graph_image?dark_mode=true", "desk-dark"},
	} {
		want, err := os.ReadFile("testdata/adk-2.13.0-build_graph_image-" + tc.golden + ".dot")
		if err != nil {
			t.Fatal(err)
		}
		rep := stack(tc.path).do(t, request{method: "GET", path: tc.path})
		var got map[string]graphReply
		if err := json.Unmarshal([]byte(rep.body), &got); err != nil || rep.status != 200 || len(got) != 1 {
			t.Fatalf("GET %s: %d %s", tc.path, rep.status, rep.body)
		}
		key := ""
		if strings.Contains(tc.path, "node=") {
			key = "trip_planner"
		}
		if d := cmp.Diff(string(want), got[key].DotSrc); d != "" {
			t.Errorf("GET %s (-adk +agentsvc):\n%s", tc.path, d)
		}
	}
	// The node a path names: an agent node of the workflow, drawn as a tree.
	s := stacks["triage"]
	rep := s.do(t, request{method: "GET", path: "/dev/apps/triage/build_graph_image?node=triage/helper"})
	if rep.status != 200 || !strings.Contains(rep.body, `"triage/helper":{"dotSrc":"// Workflow Visualization`) {
		t.Errorf("node=triage/helper: %d %s", rep.status, rep.body)
	}
	if rep := s.do(t, request{method: "GET", path: "/dev/apps/triage/build_graph_image?node=nope"}); rep.status != 404 ||
		!strings.Contains(rep.body, "Node not found: nope") {
		t.Errorf("unknown node: %d %s, want 404", rep.status, rep.body)
	}
	rep = stacks["desk1"].do(t, request{method: "GET", path: "/dev/apps/desk1/build_graph_image"})
	if rep.status != 200 || !strings.Contains(rep.body, `rankdir=\"LR\"`) || !strings.Contains(rep.body, `shape=\"ellipse\"`) {
		t.Errorf("1.x app: %d %s, want agent_graph's drawing", rep.status, rep.body)
	}
}
