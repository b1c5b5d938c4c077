package server_test

import (
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/artifacts"
	"github.com/agentsvc/agentsvc/internal/artifacts/blobstore"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/server"
)

// TestArtifactRoutes: ADK's artifact routes answer what google-adk 1.39.1's
// API server answers for the same calls (probed with its FastAPI app):
// versions from 0, user: names beside the session's, parts and version
// metadata in ADK's JSON, 404 and 400 with ADK's texts, DELETE removing
// every version.
func TestArtifactRoutes(t *testing.T) {
	t.Parallel()
	store, err := blobstore.Open(t.Context(), "memory://")
	if err != nil {
		t.Fatal(err)
	}
	fx := newFixture(t, withConfig(func(c *server.Config) { c.Artifacts = store }))
	base := fx.serveHTTP(t).URL + "/apps/" + appName + "/users/" + userID + "/sessions/s1/artifacts"
	call := func(method, path, body string) (int, any) {
		t.Helper()
		code, text := doJSON(t, method, base+path, body)
		var v any
		if err := json.Unmarshal([]byte(text), &v); err != nil {
			t.Fatalf("%s %s: %d %q", method, path, code, text)
		}
		return code, v
	}
	strip := func(v any) any { // the store's own URI and clock
		if m, ok := v.(map[string]any); ok {
			delete(m, "canonicalUri")
			if _, ok := m["createTime"].(float64); ok {
				m["createTime"] = "T"
			}
		}
		return v
	}
	steps := []struct {
		method, path, body string
		code               int
		want               string
	}{
		{"POST", "", `{"filename": "report.txt", "artifact": {"text": "hello"}}`, 200,
			`{"version":0,"customMetadata":{},"createTime":"T","mimeType":"text/plain"}`},
		{"POST", "", `{"filename": "report.txt", "artifact": {"inline_data": {"mime_type": "application/pdf", "data": "JVBERi0="}}, "custom_metadata": {"k": 1}}`, 200,
			`{"version":1,"customMetadata":{"k":1},"createTime":"T","mimeType":"application/pdf"}`},
		{"POST", "", `{"filename": "user:pic.png", "artifact": {"inlineData": {"mimeType": "image/png", "data": "iVBO"}}}`, 200,
			`{"version":0,"customMetadata":{},"createTime":"T","mimeType":"image/png"}`},
		{"GET", "", "", 200, `["report.txt","user:pic.png"]`},
		{"GET", "/report.txt", "", 200, `{"inlineData":{"data":"JVBERi0=","mimeType":"application/pdf"}}`},
		{"GET", "/report.txt?version=0", "", 200, `{"text":"hello"}`},
		{"GET", "/report.txt/versions", "", 200, `[0,1]`},
		{"GET", "/report.txt/versions/1/metadata", "", 200, `{"version":1,"customMetadata":{"k":1},"createTime":"T","mimeType":"application/pdf"}`},
		{"GET", "/report.txt/versions/0", "", 200, `{"text":"hello"}`},
		{"GET", "/missing", "", 404, ""},
		{"POST", "", `{"filename": "../x", "artifact": {"text": "hello"}}`, 400, ""},
		{"DELETE", "/report.txt", "", 200, `{}`},
		{"GET", "", "", 200, `["user:pic.png"]`},
	}
	for _, st := range steps {
		code, got := call(st.method, st.path, st.body)
		if code != st.code {
			t.Errorf("%s %s: %d %v, want %d", st.method, st.path, code, got, st.code)
			continue
		}
		if st.want == "" {
			continue
		}
		var want any
		if err := json.Unmarshal([]byte(st.want), &want); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, strip(got)); diff != "" {
			t.Errorf("%s %s (-adk +agentsvc):\n%s", st.method, st.path, diff)
		}
	}
	_, got := call("GET", "/missing", "")
	if msg, _ := got.(map[string]any)["message"].(string); msg != "Artifact not found" {
		t.Errorf("404 message = %v", got)
	}
	_, got = call("POST", "", `{"filename": "../x", "artifact": {"text": "hello"}}`)
	if msg, _ := got.(map[string]any)["message"].(string); msg != "Artifact filename '../x' must not contain parent traversal." {
		t.Errorf("400 message = %v", got)
	}
	code, list := call("GET", "/user:pic.png/versions/metadata", "")
	if l, _ := list.([]any); code != 200 || len(l) != 1 || !strings.HasPrefix(l[0].(map[string]any)["canonicalUri"].(string), "memory://") {
		t.Errorf("versions/metadata: %d %v", code, list)
	}
}

// TestArtifactsNotConfigured: without a store, the artifact RPCs answer
// FAILED_PRECONDITION with ADK's text.
func TestArtifactsNotConfigured(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	_, err := api.NewArtifactServiceClient(fx.conn).ListArtifactKeys(t.Context(),
		&api.ListArtifactKeysRequest{AppName: appName, UserId: userID, SessionId: "s1"})
	if status.Code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "Artifact service is not initialized.") {
		t.Errorf("ListArtifactKeys: %v", err)
	}
}

// artifactApp's agent reads the report artifact in its instruction and has
// a client tool that makes it.
var artifactApp = fstest.MapFS{appName + "/root_agent.yaml": {Data: []byte(`name: desk_agent
model: m
instruction: "Report: {artifact.report.pdf?}"
tools:
  - name: make_report
  - name: load_artifacts
`)}}

// TestClientToolSavesArtifact: a client tool returns a PDF in
// ToolResult.artifacts; it is stored as version 0, the response event's
// artifact_delta says so, the next turn's {artifact.report.pdf} inserts it
// as ADK does (str() of the Part), a turn over REST /run sees it through
// load_artifacts, and the artifact routes serve it.
func TestClientToolSavesArtifact(t *testing.T) {
	t.Parallel()
	store, err := blobstore.Open(t.Context(), "memory://")
	if err != nil {
		t.Fatal(err)
	}
	fx := newFixture(t, withApp(artifactApp), withConfig(func(c *server.Config) {
		c.Artifacts, c.Apps[0].Runner.Artifacts = store, store
	}))
	ctx := testContext(t)
	s := &stack{fx}
	sid := s.newSession(t, ctx)
	pdf := []byte("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	fx.model.Enqueue(et.Call("make_report", `{}`), et.Text("Done."), et.Text("Read it."))
	stream := fx.connect(t, ctx, startMsg(sid, "Make the report.", &api.ToolDeclaration{Name: "make_report"}))
	head := recvUntil(t, stream, isToolCall)
	call := head[len(head)-1].GetToolCall()
	res := &api.ToolResult{CallId: call.CallId, Response: structpb.NewStringValue("saved"),
		Artifacts: map[string]*v1.Part{"report.pdf": {InlineData: &v1.Blob{MimeType: "application/pdf", Data: pdf}}}}
	if err := stream.Send(&api.ConnectRequest{Kind: &api.ConnectRequest_ToolResult{ToolResult: res}}); err != nil {
		t.Fatal(err)
	}
	if _, err := recvAll(stream); err != nil {
		t.Fatal(err)
	}
	events := s.session(t, ctx, sid).Events
	if got := events[2].GetActions().GetArtifactDelta(); !cmp.Equal(got, map[string]int64{"report.pdf": 0}) {
		t.Errorf("response event artifact_delta = %v", got)
	}
	if _, err := fx.run(ctx, &api.RunRequest{AppName: appName, UserId: userID, SessionId: sid,
		NewMessage: &v1.Content{Role: "user", Parts: []*v1.Part{{Text: "And now?"}}}}); err != nil {
		t.Fatal(err)
	}
	reqs := fx.model.Requests()
	if got := reqs[0].GetConfig().GetSystemInstruction(); !strings.HasPrefix(got, "Report: \n\n") {
		t.Errorf("first instruction = %q, want the optional artifact empty", got)
	}
	want := "Report: media_resolution=None code_execution_result=None executable_code=None file_data=None function_call=None " +
		"function_response=None inline_data=Blob(\n  data=b'%PDF-1.7\\n%\\xe2\\xe3\\xcf\\xd3\\n',\n  mime_type='application/pdf'\n) text=None " +
		"thought=None thought_signature=None video_metadata=None tool_call=None tool_response=None part_metadata=None " +
		"audio_transcription=None media_processing=None speech_metadata=None"
	if got := reqs[2].GetConfig().GetSystemInstruction(); !strings.HasPrefix(got, want+"\n\n") {
		t.Errorf("instruction after the save:\n%q\nwant it to start\n%q", got, want)
	}
	fx.model.Enqueue(et.Call("load_artifacts", `{"artifact_names":["report.pdf"]}`), et.Text("A PDF."))
	code, body := postJSON(t, fx.serveHTTP(t).URL+"/run", `{"appName":"`+appName+`","userId":"`+userID+`","sessionId":"`+sid+
		`","newMessage":{"role":"user","parts":[{"text":"What is in it?"}]}}`)
	if code != 200 || !strings.Contains(body, "A PDF.") {
		t.Fatalf("/run: %d %s", code, body)
	}
	reqs = fx.model.Requests()
	contents := reqs[len(reqs)-1].GetContents()
	if diff := cmp.Diff(&v1.Content{Role: "user", Parts: []*v1.Part{{Text: "Artifact report.pdf is:"},
		{InlineData: &v1.Blob{MimeType: "application/pdf", Data: pdf}}}}, contents[len(contents)-1], protocmp.Transform()); diff != "" {
		t.Errorf("load_artifacts over REST (-want +got):\n%s", diff)
	}
	loaded, err := api.NewArtifactServiceClient(fx.conn).LoadArtifact(ctx, &api.LoadArtifactRequest{AppName: appName, UserId: userID,
		SessionId: sid, Filename: "report.pdf"})
	if err != nil || string(loaded.GetArtifact().GetInlineData().GetData()) != string(pdf) {
		t.Errorf("LoadArtifact: %v %v", loaded, err)
	}
}

// TestLoadArtifacts: load_artifacts lists the artifacts in the instruction
// and, after the model calls it, adds their contents to the request as
// google-adk 1.39.1 does (probed with a recording model): text types as
// text (invalid UTF-8 replaced), images inline, user: names found without
// the prefix, other binaries as a note, missing names skipped.
func TestLoadArtifacts(t *testing.T) {
	t.Parallel()
	store, err := blobstore.Open(t.Context(), "memory://")
	if err != nil {
		t.Fatal(err)
	}
	fx := newFixture(t, withApp(fstest.MapFS{appName + "/root_agent.yaml": {Data: []byte(
		"name: root\nmodel: m\ninstruction: Help.\ntools:\n  - name: load_artifacts\n")}}),
		withConfig(func(c *server.Config) { c.Artifacts, c.Apps[0].Runner.Artifacts = store, store }))
	ctx := testContext(t)
	s := &stack{fx}
	sid := s.newSession(t, ctx)
	for name, part := range map[string]*v1.Part{
		"report.txt":   {InlineData: &v1.Blob{MimeType: "text/plain", Data: []byte("hello \xe2\x82 world")}},
		"user:pic.png": {InlineData: &v1.Blob{MimeType: "image/png", Data: []byte("\x89PNG")}},
		"blob.bin":     {InlineData: &v1.Blob{MimeType: "application/zip", Data: []byte(strings.Repeat("x", 3000))}},
	} {
		if _, err := store.Save(ctx, artifacts.Key{AppName: appName, UserID: userID, SessionID: sid, Filename: name}, part, nil); err != nil {
			t.Fatal(err)
		}
	}
	fx.model.Enqueue(et.Call("load_artifacts", `{"artifact_names":["report.txt","pic.png","blob.bin","nope"]}`), et.Text("ok"))
	if _, err := fx.run(ctx, &api.RunRequest{AppName: appName, UserId: userID, SessionId: sid,
		NewMessage: &v1.Content{Role: "user", Parts: []*v1.Part{{Text: "What is in the report?"}}}}); err != nil {
		t.Fatal(err)
	}
	reqs := fx.model.Requests()
	wantSI := "Help.\n\nYou are an agent. Your internal name is \"root\".\n\nYou have a list of artifacts:\n  [\"blob.bin\", \"report.txt\", \"user:pic.png\"]\n\n" +
		"  When the user asks questions about any of the artifacts, you should call the\n  `load_artifacts` function to load the artifact. Always call load_artifacts\n" +
		"  before answering questions related to the artifacts, regardless of whether the\n  artifacts have been loaded before. Do not depend on prior answers about the\n  artifacts.\n  "
	if got := reqs[0].GetConfig().GetSystemInstruction(); got != wantSI {
		t.Errorf("system instruction:\n%q\nwant\n%q", got, wantSI)
	}
	decl := reqs[0].GetConfig().GetTools()[0].GetFunctionDeclarations()[0]
	if decl.Description != "Loads artifacts into the session for this request.\n\nNOTE: Call when you need access to artifacts (for example, uploads saved by the\nweb UI)." {
		t.Errorf("description = %q", decl.Description)
	}
	text := func(s string) *v1.Part { return &v1.Part{Text: s} }
	want := []*v1.Content{
		{Role: "user", Parts: []*v1.Part{text("Artifact report.txt is:"), text("hello \ufffd world")}},
		{Role: "user", Parts: []*v1.Part{text("Artifact pic.png is:"), {InlineData: &v1.Blob{MimeType: "image/png", Data: []byte("\x89PNG")}}}},
		{Role: "user", Parts: []*v1.Part{text("Artifact blob.bin is:"),
			text("[Binary artifact: blob.bin, type: application/zip, size: 2.9 KB. Content cannot be displayed inline.]")}},
	}
	contents := reqs[1].GetContents()
	if diff := cmp.Diff(want, contents[len(contents)-3:], protocmp.Transform()); diff != "" {
		t.Errorf("added contents (-adk +agentsvc):\n%s", diff)
	}
	resp := contents[len(contents)-4].GetParts()[0].GetFunctionResponse().GetResponse().AsMap()
	if resp["status"] != "artifact contents temporarily inserted and removed. to access these artifacts, call load_artifacts tool again." {
		t.Errorf("response = %v", resp)
	}
}

// TestCallbackSavesArtifact: files in a callback's result are saved and
// recorded in the artifact_delta of the event that follows, as ADK's
// callback_context.save_artifact records them.
func TestCallbackSavesArtifact(t *testing.T) {
	t.Parallel()
	store, err := blobstore.Open(t.Context(), "memory://")
	if err != nil {
		t.Fatal(err)
	}
	s := &stack{newFixture(t, withApp(fstest.MapFS{appName + "/root_agent.yaml": {Data: []byte(guardAgent)}}),
		withConfig(func(c *server.Config) { c.Artifacts, c.Apps[0].Runner.Artifacts = store, store }))}
	ctx := testContext(t)
	sid := s.newSession(t, ctx)
	s.model.Enqueue(et.Text("Hello."))
	stream := s.connect(t, ctx, guardStart(sid, "Hi"))
	note := map[string]*v1.Part{"note.txt": {Text: "seen"}}
	if _, err := driveClient(t, stream, map[string]callbackHandler{
		"after_model": func(*api.CallbackCall) *api.CallbackResult { return &api.CallbackResult{Artifacts: note} },
	}); err != nil {
		t.Fatal(err)
	}
	events := s.session(t, ctx, sid).Events
	if got := events[len(events)-1].GetActions().GetArtifactDelta(); !cmp.Equal(got, map[string]int64{"note.txt": 0}) {
		t.Errorf("artifact_delta = %v", got)
	}
	part, err := store.Load(ctx, artifacts.Key{AppName: appName, UserID: userID, SessionID: sid, Filename: "note.txt"}, artifacts.Latest)
	if err != nil || part.GetText() != "seen" {
		t.Errorf("stored = %v, %v", part, err)
	}
}

// TestClientToolHostileArtifact: a file name that would leave its scope
// fails the run with ADK's text and saves nothing; the session runs again.
func TestClientToolHostileArtifact(t *testing.T) {
	t.Parallel()
	store, err := blobstore.Open(t.Context(), "memory://")
	if err != nil {
		t.Fatal(err)
	}
	fx := newFixture(t, withApp(artifactApp), withConfig(func(c *server.Config) {
		c.Artifacts, c.Apps[0].Runner.Artifacts = store, store
	}))
	ctx := testContext(t)
	s := &stack{fx}
	sid := s.newSession(t, ctx)
	fx.model.Enqueue(et.Call("make_report", `{}`), et.Text("Done."))
	stream := fx.connect(t, ctx, startMsg(sid, "Make the report.", &api.ToolDeclaration{Name: "make_report"}))
	head := recvUntil(t, stream, isToolCall)
	res := &api.ToolResult{CallId: head[len(head)-1].GetToolCall().CallId,
		Artifacts: map[string]*v1.Part{"../../escape.txt": {Text: "x"}}}
	if err := stream.Send(&api.ConnectRequest{Kind: &api.ConnectRequest_ToolResult{ToolResult: res}}); err != nil {
		t.Fatal(err)
	}
	_, err = recvAll(stream)
	if status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "must not contain parent traversal") {
		t.Fatalf("run: %v", err)
	}
	if names, err := store.ListKeys(ctx, appName, userID, sid); err != nil || len(names) != 0 {
		t.Errorf("stored artifacts = %v, %v", names, err)
	}
	fx.model.Enqueue(et.Text("Hello again."))
	if _, err := fx.run(ctx, &api.RunRequest{AppName: appName, UserId: userID, SessionId: sid,
		NewMessage: &v1.Content{Role: "user", Parts: []*v1.Part{{Text: "Hi"}}}}); err != nil {
		t.Errorf("the session does not run again: %v", err)
	}
}
