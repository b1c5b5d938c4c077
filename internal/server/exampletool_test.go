package server_test

import (
	"strings"
	"testing"
	"testing/fstest"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
)

// exampleAgent is google-adk's probe agent for ExampleTool; MODEL is
// replaced by the model under test.
const exampleAgent = `name: root
model: MODEL
instruction: Answer.
tools:
  - name: ExampleTool
    args:
      examples:
        - input:
            role: user
            parts: [{text: "What's the weather in Paris?"}, {text: "And tomorrow?"}]
          output:
            - role: model
              parts:
                - function_call: {name: get_weather, args: {city: Paris, days: 2, metric: true, tags: [a, 1], opts: {x: 1.5, y: null}}}
            - role: user
              parts:
                - function_response: {name: get_weather, response: {temp: 21, sky: "it's clear", list: [1, 2.0]}}
            - role: model
              parts: [{text: "Sunny, 21."}]
        - input: {role: user, parts: [{text: Hi}]}
          output:
            - role: model
              parts: [{text: Hello.}, {text: "How can I help?"}]
            - role: model
              parts: [{text: Still me.}]
`

// exampleInstruction is the system instruction google-adk 1.39.1 sends for
// exampleAgent (probed with a recording model); FENCE_CALL and
// FENCE_RESULT open the call and the result, which Gemini 2 models get
// unlabelled.
const exampleInstruction = "Answer.\n\nYou are an agent. Your internal name is \"root\".\n\n<EXAMPLES>\nBegin few-shot\n" +
	"The following are examples of user queries and model responses using the available tools.\n\n" +
	"EXAMPLE 1:\nBegin example\n[user]\nWhat's the weather in Paris?\nAnd tomorrow?\n[model]\nFENCE_CALL\n" +
	"get_weather(city='Paris', days=2, metric=True, tags=['a', 1], opts={'x': 1.5, 'y': None})\n```\n[user]\nFENCE_RESULT\n" +
	"{'will_continue': None, 'scheduling': None, 'parts': None, 'id': None, 'name': 'get_weather', 'response': {'temp': 21, 'sky': \"it's clear\", 'list': [1, 2.0]}}\n```\n" +
	"[model]\nSunny, 21.\nEnd example\n\nEXAMPLE 2:\nBegin example\n[user]\nHi\n[model]\nHello.\nHow can I help?\nStill me.\n" +
	"End example\n\nEnd few-shot\n<EXAMPLES>"

// TestExampleTool: ExampleTool's examples join the system instruction as
// google-adk writes them, fenced as for Gemini 2 models or as tool_code and
// tool_outputs for other models; nothing is declared to the model.
func TestExampleTool(t *testing.T) {
	t.Parallel()
	t.Run("other model", func(t *testing.T) {
		t.Parallel()
		fx := newFixture(t, withApp(fstest.MapFS{appName + "/root_agent.yaml": {Data: []byte(strings.Replace(exampleAgent, "MODEL", modelName, 1))}}))
		ctx := t.Context()
		created, err := fx.sessions.CreateSession(ctx, &api.CreateSessionRequest{AppName: appName, UserId: userID})
		if err != nil {
			t.Fatal(err)
		}
		fx.model.Enqueue(et.Text("ok"))
		if _, err := fx.run(ctx, &api.RunRequest{AppName: appName, UserId: userID, SessionId: created.Session.Id,
			NewMessage: &v1.Content{Role: "user", Parts: []*v1.Part{{Text: "Go."}}}}); err != nil {
			t.Fatal(err)
		}
		req := fx.model.Requests()[0]
		want := strings.NewReplacer("FENCE_CALL", "```tool_code", "FENCE_RESULT", "```tool_outputs").Replace(exampleInstruction)
		if got := req.GetConfig().GetSystemInstruction(); got != want {
			t.Errorf("system instruction:\n%q\nwant\n%q", got, want)
		}
		if len(req.GetConfig().GetTools()) != 0 {
			t.Errorf("tools declared: %v", req.GetConfig().GetTools())
		}
	})
	t.Run("gemini 2", func(t *testing.T) {
		t.Parallel()
		s := newGeminiAppStack(t, fstest.MapFS{geminiApp + "/root_agent.yaml": {Data: []byte(strings.Replace(exampleAgent, "MODEL", "gemini-2.5-flash", 1))}})
		s.enqueue(t, says("ok"))
		if _, err := s.run(t.Context(), s.newSession(t), "Go.", false); err != nil {
			t.Fatal(err)
		}
		body := s.fake.Requests()[0].Body
		got := body["systemInstruction"].(map[string]any)["parts"].([]any)[0].(map[string]any)["text"]
		want := strings.NewReplacer("FENCE_CALL", "```", "FENCE_RESULT", "```").Replace(exampleInstruction)
		if got != want {
			t.Errorf("system instruction:\n%q\nwant\n%q", got, want)
		}
	})
}
