package plugins

import (
	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/instructions"
)

// newGlobalInstruction is ADK's GlobalInstructionPlugin: before each model
// call it puts global_instruction, with session state injected as in an
// agent's instruction, in front of the system instruction, joined by a
// blank line. An empty instruction changes nothing.
func newGlobalInstruction(a *arguments) (*runtime.Plugin, error) {
	name, err := a.string("name", "global_instruction")
	if err != nil {
		return nil, err
	}
	template, err := a.string("global_instruction", "")
	if err != nil {
		return nil, err
	}
	return &runtime.Plugin{Name: name, BeforeModel: func(cctx *runtime.CallbackContext, req *v1.LlmRequest) (*v1.LlmResponse, error) {
		if template == "" {
			return nil, nil
		}
		text, err := instructions.Inject(cctx.Context(), template, cctx.StateValue, nil)
		if err != nil {
			return nil, runtime.AppConfigError(v1.ErrorReason_INSTRUCTION.String(), err)
		}
		if text == "" {
			return nil, nil
		}
		if req.Config == nil {
			req.Config = &v1.GenerateContentConfig{}
		}
		if req.Config.SystemInstruction == "" {
			req.Config.SystemInstruction = text
		} else {
			req.Config.SystemInstruction = text + "\n\n" + req.Config.SystemInstruction
		}
		return nil, nil
	}}, nil
}
