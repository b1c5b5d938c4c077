package server_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
)

// dotEdges reads the edges of a DOT graph by node label ("from->to",
// emoji captions dropped), and the highlighted nodes.
func dotEdges(t *testing.T, src string) (edges, green []string) {
	t.Helper()
	labels := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^\s*(n\d+)\[([^\]]*)\]`).FindAllStringSubmatch(src, -1) {
		l := regexp.MustCompile(`label="(?:\S+ )?([^"]*)"`).FindStringSubmatch(m[2])
		if l == nil {
			t.Fatalf("node without a label: %s", m[0])
		}
		labels[m[1]] = l[1]
		if strings.Contains(m[2], `fillcolor="#0F5223"`) {
			green = append(green, l[1])
		}
	}
	for _, m := range regexp.MustCompile(`(n\d+)->(n\d+)`).FindAllStringSubmatch(src, -1) {
		edges = append(edges, labels[m[1]]+"->"+labels[m[2]])
	}
	slices.Sort(edges)
	slices.Sort(green)
	return edges, green
}

// graphReply is ADK's GetEventGraphResult.
type graphReply struct {
	DotSrc string `json:"dotSrc"`
}

// getGraph GETs a graph route that must answer one.
func getGraph(t *testing.T, s *restStack, path string) graphReply {
	t.Helper()
	rep := s.do(t, request{method: "GET", path: path})
	var g graphReply
	if err := json.Unmarshal([]byte(rep.body), &g); err != nil || rep.status != 200 {
		t.Fatalf("GET %s: %d %s", path, rep.status, rep.body)
	}
	return g
}

// TestAgentGraph: the dev UI's agent graph has the nodes and edges ADK's
// agent_graph draws for the same tree (recorded from google-adk 2.13), and
// an event's graph highlights the event's author (and the function it
// called, when that is a node: a transfer is not).
func TestAgentGraph(t *testing.T) {
	t.Parallel()
	s := newRESTStack(t)
	g := getGraph(t, s, "/dev/apps/desk/graph?dark_mode=true")
	edges, green := dotEdges(t, g.DotSrc)
	want := []string{"desk_agent->approve", "desk_agent->get_weather", "desk_agent->helper", "helper->send_mail"}
	if !slices.Equal(edges, want) || len(green) != 0 || !strings.Contains(g.DotSrc, `bgcolor="#333537"`) {
		t.Errorf("edges %v (green %v), want %v:\n%s", edges, green, want, g.DotSrc)
	}

	s.session(t, "s1")
	s.model.Enqueue(et.Call("transfer_to_agent", `{"agent_name":"helper"}`), et.Text("Helper here."))
	run := s.do(t, request{method: "POST", path: "/run", body: runBody("s1", "weather?")})
	var events []struct {
		ID     string `json:"id"`
		Author string `json:"author"`
	}
	if err := json.Unmarshal([]byte(run.body), &events); err != nil || len(events) == 0 {
		t.Fatalf("run: %d %s", run.status, run.body)
	}
	call := ""
	for _, ev := range events {
		if ev.Author == "desk_agent" && call == "" {
			call = ev.ID
		}
	}
	g = getGraph(t, s, "/dev/apps/desk/users/u1/sessions/s1/events/"+call+"/graph")
	if _, green := dotEdges(t, g.DotSrc); !slices.Equal(green, []string{"desk_agent"}) {
		t.Errorf("highlighted %v, want the agent and its tool:\n%s", green, g.DotSrc)
	}
	if rep := s.do(t, request{method: "GET", path: "/dev/apps/desk/users/u1/sessions/s1/events/nope/graph"}); rep.status != 200 || rep.body != "{}\n" {
		t.Errorf("unknown event: %d %s, want {}", rep.status, rep.body)
	}
}

// exampleApp adds the files of the example app name to app.
func exampleApp(t *testing.T, name string, app fstest.MapFS) fstest.MapFS {
	t.Helper()
	files, err := filepath.Glob("../../examples/" + name + "/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("example files: %v %v", files, err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		app[name+"/"+filepath.Base(f)] = &fstest.MapFile{Data: b}
	}
	return app
}

// TestAgentGraphWorkflow: workflow agents are clusters joined as ADK's
// agent_graph joins them; the edges are those google-adk 2.13 draws for the
// story_pipeline example.
func TestAgentGraphWorkflow(t *testing.T) {
	t.Parallel()
	s := &restStack{fixture: newFixture(t, withoutGRPC(), withApp(exampleApp(t, "story_pipeline", fstest.MapFS{})))}
	s.http = s.serveHTTP(t)
	g := getGraph(t, s, "/dev/apps/story_pipeline/graph")
	edges, _ := dotEdges(t, g.DotSrc)
	want := []string{"critic->editor", "critic->exit_loop", "editor->critic", "reviews->polish",
		"story_pipeline->editor", "story_pipeline->plot_reviewer", "story_pipeline->style_reviewer", "writer->reviews"}
	if !slices.Equal(edges, want) {
		t.Errorf("edges %v, want %v:\n%s", edges, want, g.DotSrc)
	}
	// build_graph: the app as google-adk 2.13's serialize_app_info writes it.
	rep := s.do(t, request{method: "GET", path: "/dev/apps/story_pipeline/build_graph"})
	golden, err := os.ReadFile("testdata/adk-2.13.0-build_graph-story_pipeline.json")
	if err != nil {
		t.Fatal(err)
	}
	var wantJSON, gotJSON any
	if err := json.Unmarshal(golden, &wantJSON); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(rep.body), &gotJSON); err != nil || rep.status != 200 {
		t.Fatalf("build_graph: %d %s", rep.status, rep.body)
	}
	if d := cmp.Diff(wantJSON, gotJSON); d != "" {
		t.Errorf("build_graph (-adk +agentsvc):\n%s", d)
	}
	for _, cluster := range []string{"story_pipeline (Sequential Agent)", "reviews (Parallel Agent)", "polish (Loop Agent)"} {
		if strings.Count(g.DotSrc, `label="`+cluster+`"`) != 1 {
			t.Errorf("cluster %q not drawn once:\n%s", cluster, g.DotSrc)
		}
	}
}
