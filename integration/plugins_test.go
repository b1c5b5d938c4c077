package integration

import (
	"context"
	"testing"
	"time"
)

// TestBuiltInPluginFromAppYAML runs an app whose app.yaml names
// GlobalInstructionPlugin: the model request's system instruction starts
// with the plugin's instruction, session state injected.
func TestBuiltInPluginFromAppYAML(t *testing.T) {
	t.Parallel()
	s := startStack(t, map[string]string{
		"kind": "name: kind\nmodel: gemini-2.5-flash\ninstruction: Answer briefly.\n",
		"kind/app.yaml": "plugins:\n  - name: GlobalInstructionPlugin\n    args:\n" +
			"      global_instruction: \"Company policy: be kind{suffix?}.\"\n",
	})
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	s.runApp(t, ctx, "kind", "", "hello")
	reqs := s.modelRequests(t)
	if len(reqs) != 1 {
		t.Fatalf("model requests = %d, want 1", len(reqs))
	}
	want := "Company policy: be kind.\n\nAnswer briefly.\n\nYou are an agent. Your internal name is \"kind\"."
	if got := systemInstruction(t, reqs[0].Body); got != want {
		t.Errorf("system instruction = %q, want %q", got, want)
	}
}
