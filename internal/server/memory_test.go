package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/memory"
	"github.com/agentsvc/agentsvc/internal/memory/inmemory"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/server"
)

// memoryApp is google-adk's probe agent for the memory tools.
var memoryApp = fstest.MapFS{appName + "/root_agent.yaml": {Data: []byte(`name: root
model: m
instruction: Help.
tools:
  - name: load_memory
  - name: preload_memory
`)}}

// TestMemoryTools: a session added to memory (over gRPC, then ADK's REST
// PATCH) is what the next session's model is told: preload_memory writes
// the past conversation into the instruction and load_memory answers with
// the memories, both as google-adk 1.39.1 sends them (probed over HTTP
// with the same conversation).
func TestMemoryTools(t *testing.T) {
	t.Parallel()
	for _, transport := range []string{"grpc", "rest"} {
		t.Run(transport, func(t *testing.T) {
			t.Parallel()
			mem := inmemory.New()
			fx := newFixture(t, withApp(memoryApp), withConfig(func(c *server.Config) {
				c.Memory, c.Apps[0].Runner.Memory = mem, mem
			}))
			httpURL := fx.serveHTTP(t).URL
			ctx := t.Context()
			run := func(text string) string {
				created, err := fx.sessions.CreateSession(ctx, &api.CreateSessionRequest{AppName: appName, UserId: userID})
				if err != nil {
					t.Fatal(err)
				}
				if _, err := fx.run(ctx, &api.RunRequest{AppName: appName, UserId: userID, SessionId: created.Session.Id,
					NewMessage: &v1.Content{Role: "user", Parts: []*v1.Part{{Text: text}}}}); err != nil {
					t.Fatal(err)
				}
				return created.Session.Id
			}
			fx.model.Enqueue(et.Text("Noted: your cat is Tom."))
			first := run("My cat is called Tom.")
			if transport == "grpc" {
				if _, err := fx.sessions.AddSessionToMemory(ctx, &api.AddSessionToMemoryRequest{AppName: appName, UserId: userID, SessionId: first}); err != nil {
					t.Fatal(err)
				}
			} else {
				code, body := doJSON(t, http.MethodPatch, httpURL+"/apps/"+appName+"/users/"+userID+"/memory", `{"session_id":"`+first+`"}`)
				if code != 200 {
					t.Fatalf("PATCH memory: %d %s", code, body)
				}
			}
			stored, err := fx.sessions.GetSession(ctx, &api.GetSessionRequest{AppName: appName, UserId: userID, SessionId: first})
			if err != nil {
				t.Fatal(err)
			}
			at := func(i int) string { return memory.FormatTimestamp(stored.Session.Events[i].Timestamp, time.Local) }

			fx.model.Enqueue(et.Call("load_memory", `{"query":"cat"}`), et.Text("Tom."))
			run("What is my cat called?")
			reqs := fx.model.Requests()[1:]
			wantInstruction := "Help.\n\nYou are an agent. Your internal name is \"root\".\n\n\n" +
				"You have memory. You can use it to answer questions. If any questions need\nyou to look up the memory, you should call load_memory function with a query.\n\n\n" +
				"The following content is from your previous conversations with the user.\nThey may be useful for answering the user's current query.\n<PAST_CONVERSATIONS>\n" +
				"Time: " + at(0) + "\nuser: My cat is called Tom.\nTime: " + at(1) + "\nroot: Noted: your cat is Tom.\n</PAST_CONVERSATIONS>\n"
			if got := reqs[0].GetConfig().GetSystemInstruction(); got != wantInstruction {
				t.Errorf("system instruction:\n%q\nwant\n%q", got, wantInstruction)
			}
			decls := reqs[0].GetConfig().GetTools()[0].GetFunctionDeclarations()
			if len(decls) != 1 || decls[0].Name != "load_memory" || !strings.HasPrefix(decls[0].Description, "Loads the memory for the current user.\n\nArgs:\n  query:") {
				t.Errorf("declarations = %v", decls)
			}
			contents := reqs[1].GetContents()
			got := contents[len(contents)-1].GetParts()[0].GetFunctionResponse().GetResponse().AsMap()
			want := map[string]any{"result": map[string]any{"memories": []any{
				map[string]any{"author": "user", "content": map[string]any{"parts": []any{map[string]any{"text": "My cat is called Tom."}}, "role": "user"},
					"custom_metadata": map[string]any{}, "timestamp": at(0)},
				map[string]any{"author": "root", "content": map[string]any{"parts": []any{map[string]any{"text": "Noted: your cat is Tom."}}, "role": "model"},
					"custom_metadata": map[string]any{}, "timestamp": at(1)},
			}}}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("load_memory response (-adk +agentsvc):\n%s", diff)
			}

			code, body := doJSON(t, http.MethodGet, httpURL+"/apps/"+appName+"/users/"+userID+"/memory?query=Tom", "")
			var found []map[string]any
			if err := json.Unmarshal([]byte(body), &found); code != 200 || err != nil || len(found) != 2 || found[1]["author"] != "root" {
				t.Errorf("GET memory: %d %s", code, body)
			}
		})
	}
}

// TestMemoryNotConfigured: without a memory service the memory routes
// answer FAILED_PRECONDITION, as ADK answers 400, and load_memory fails
// the run with ADK's words.
func TestMemoryNotConfigured(t *testing.T) {
	t.Parallel()
	fx := newFixture(t, withApp(memoryApp))
	ctx := t.Context()
	created, err := fx.sessions.CreateSession(ctx, &api.CreateSessionRequest{AppName: appName, UserId: userID})
	if err != nil {
		t.Fatal(err)
	}
	_, err = fx.sessions.AddSessionToMemory(ctx, &api.AddSessionToMemoryRequest{AppName: appName, UserId: userID, SessionId: created.Session.Id})
	if status.Code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "Memory service is not configured.") {
		t.Errorf("AddSessionToMemory: %v", err)
	}
	fx.model.Enqueue(et.Call("load_memory", `{"query":"cat"}`), et.Text("?"))
	_, err = fx.run(ctx, &api.RunRequest{AppName: appName, UserId: userID, SessionId: created.Session.Id,
		NewMessage: &v1.Content{Role: "user", Parts: []*v1.Part{{Text: "Cat?"}}}})
	if err == nil || !strings.Contains(err.Error(), "Memory service is not available.") {
		t.Errorf("run: %v", err)
	}
}

// TestSearchMemoryHostileQuery: a query past the memory store's bound is
// refused before anything is searched.
func TestSearchMemoryHostileQuery(t *testing.T) {
	t.Parallel()
	mem := inmemory.New()
	fx := newFixture(t, withApp(memoryApp), withConfig(func(c *server.Config) { c.Memory = mem }))
	_, err := fx.sessions.SearchMemory(t.Context(), &api.SearchMemoryRequest{AppName: appName, UserId: userID,
		Query: strings.Repeat("cat ", 1<<13)})
	if status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "too long") {
		t.Errorf("SearchMemory: %v", err)
	}
}

// TestLoadMemoryQueryTooLong: a load_memory query from the model past the
// store's bound answers the model with the error; the run goes on.
func TestLoadMemoryQueryTooLong(t *testing.T) {
	t.Parallel()
	mem := inmemory.New()
	fx := newFixture(t, withApp(memoryApp), withConfig(func(c *server.Config) {
		c.Memory, c.Apps[0].Runner.Memory = mem, mem
	}))
	ctx := t.Context()
	created, err := fx.sessions.CreateSession(ctx, &api.CreateSessionRequest{AppName: appName, UserId: userID})
	if err != nil {
		t.Fatal(err)
	}
	fx.model.Enqueue(et.Call("load_memory", `{"query":"`+strings.Repeat("cat ", 1<<13)+`"}`), et.Text("Sorry."))
	if _, err := fx.run(ctx, &api.RunRequest{AppName: appName, UserId: userID, SessionId: created.Session.Id,
		NewMessage: &v1.Content{Role: "user", Parts: []*v1.Part{{Text: "Cat?"}}}}); err != nil {
		t.Fatalf("run: %v", err)
	}
	reqs := fx.model.Requests()
	last := reqs[len(reqs)-1].Contents
	resp := last[len(last)-1].GetParts()[0].GetFunctionResponse().GetResponse().AsMap()
	if e, _ := resp["error"].(string); !strings.Contains(e, "memory query too large") {
		t.Errorf("load_memory answered %v, want the query-too-large error", resp)
	}
}
