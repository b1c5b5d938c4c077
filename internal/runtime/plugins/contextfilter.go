package plugins

import (
	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// newContextFilter is ADK's ContextFilterPlugin: before each model call it
// keeps the contents of the last num_invocations_to_keep invocations, an
// invocation starting at one or more consecutive user contents that hold no
// function response, and moves the cut earlier when a kept function
// response would lose its call. Without the argument (or with one below 1)
// it keeps everything.
func newContextFilter(a *arguments) (*runtime.Plugin, error) {
	name, err := a.string("name", "context_filter_plugin")
	if err != nil {
		return nil, err
	}
	keep, _, err := a.int("num_invocations_to_keep")
	if err != nil {
		return nil, err
	}
	return &runtime.Plugin{Name: name, BeforeModel: func(_ *runtime.CallbackContext, req *v1.LlmRequest) (*v1.LlmResponse, error) {
		if keep > 0 {
			req.Contents = lastInvocations(req.Contents, keep)
		}
		return nil, nil
	}}, nil
}

// lastInvocations returns the tail of contents holding the last n
// invocations, sharing contents' array.
func lastInvocations(contents []*v1.Content, n int) []*v1.Content {
	var starts []int
	previousHuman := false
	for i, c := range contents {
		human := isHumanInput(c)
		if human && !previousHuman {
			starts = append(starts, i)
		}
		previousHuman = human
	}
	if len(starts) <= n {
		return contents
	}
	return contents[keepCallsOfResponses(contents, starts[len(starts)-n]):]
}

// isHumanInput reports whether c is the user's input rather than a tool's
// output: role user and no function response.
func isHumanInput(c *v1.Content) bool {
	if c.GetRole() != "user" {
		return false
	}
	for _, p := range c.GetParts() {
		if p.GetFunctionResponse() != nil {
			return false
		}
	}
	return true
}

// keepCallsOfResponses returns the latest index at or before split from
// which every function response kept has its call kept too. Only ids the
// model gave count: ADK's plugin sees engine-made ("adk-") ids cleared.
func keepCallsOfResponses(contents []*v1.Content, split int) int {
	needed := map[string]bool{}
	for i := len(contents) - 1; i >= 0; i-- {
		parts := contents[i].GetParts()
		for j := len(parts) - 1; j >= 0; j-- {
			if id := models.ModelID(parts[j].GetFunctionResponse().GetId()); id != "" {
				needed[id] = true
			}
			if id := models.ModelID(parts[j].GetFunctionCall().GetId()); id != "" {
				delete(needed, id)
			}
		}
		if i <= split && len(needed) == 0 {
			return i
		}
	}
	return 0
}
