// Package tools holds the engine's tool implementations: function tools
// written in Go with a JSON-schema declaration, and the toolset through which
// tools that live in a client reach an agent.
package tools

import (
	"errors"
	"strings"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// longRunningNote is what ADK adds to a long-running tool's description.
const longRunningNote = "NOTE: This is a long-running operation. Do not call this tool again if it has already returned some intermediate or pending status."

// FunctionConfig declares a function tool.
type FunctionConfig struct {
	Name        string
	Description string
	// Parameters is the JSON schema of the arguments; its "required" names
	// are the mandatory parameters.
	Parameters *structpb.Struct
	// Response is the JSON schema of the result, optional.
	Response *structpb.Struct
	// LongRunning marks a tool whose result arrives later.
	LongRunning bool
	// RequireConfirmation makes every call wait for the user's approval
	// (BEHAVIOR T7).
	RequireConfirmation bool
	// AuthConfig, when set, makes the tool ask the client for a credential
	// (an ADK AuthConfig object) before it runs, as ADK's
	// AuthenticatedFunctionTool does; Run then finds the client's answer in
	// tctx.AuthResponse (BEHAVIOR T8).
	AuthConfig *structpb.Struct
	// Run is called with the model's arguments once every mandatory one is
	// present. Its result follows [runtime.Tool.Run].
	Run func(tctx *runtime.ToolContext, args *structpb.Struct) (any, error)
}

// Function is a tool backed by a Go function. It is immutable and safe for
// concurrent use.
type Function struct {
	cfg      FunctionConfig
	decl     *v1.FunctionDeclaration
	required []string
}

// NewFunction returns the function tool of cfg.
func NewFunction(cfg FunctionConfig) (*Function, error) {
	if cfg.Name == "" {
		return nil, errors.New("tools: function name is required")
	}
	if cfg.Run == nil {
		return nil, errors.New("tools: function " + cfg.Name + " has no Run")
	}
	return &Function{cfg: cfg, decl: Declaration(cfg.Name, cfg.Description, cfg.Parameters, cfg.Response, cfg.LongRunning),
		required: Required(cfg.Parameters)}, nil
}

// Declaration builds a function declaration, adding ADK's note to the
// description of a long-running tool.
func Declaration(name, description string, params, response *structpb.Struct, longRunning bool) *v1.FunctionDeclaration {
	if longRunning {
		if description != "" {
			description += "\n\n" + longRunningNote
		} else {
			description = longRunningNote
		}
	}
	return &v1.FunctionDeclaration{Name: name, Description: description, Parameters: params, Response: response}
}

// Required returns the "required" names of a JSON schema.
func Required(schema *structpb.Struct) []string {
	var names []string
	for _, v := range schema.GetFields()["required"].GetListValue().GetValues() {
		if s, ok := v.GetKind().(*structpb.Value_StringValue); ok {
			names = append(names, s.StringValue)
		}
	}
	return names
}

// MissingArgs is ADK's FunctionTool answer to a call that lacks mandatory
// arguments, or nil when none is missing.
func MissingArgs(name string, required []string, args *structpb.Struct) *structpb.Struct {
	var missing []string
	for _, r := range required {
		if _, ok := args.GetFields()[r]; !ok {
			missing = append(missing, r)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	msg := "Invoking `" + name + "()` failed as the following mandatory input parameters are not present:\n" +
		strings.Join(missing, "\n") +
		"\nYou could retry calling this tool, but it is IMPORTANT for you to provide all the mandatory parameters."
	return &structpb.Struct{Fields: map[string]*structpb.Value{"error": structpb.NewStringValue(msg)}}
}

// Name implements [runtime.Tool].
func (f *Function) Name() string { return f.cfg.Name }

// Description implements [runtime.Tool].
func (f *Function) Description() string { return f.cfg.Description }

// Declaration implements [runtime.Tool].
func (f *Function) Declaration() *v1.FunctionDeclaration { return f.decl }

// IsLongRunning implements [runtime.Tool].
func (f *Function) IsLongRunning() bool { return f.cfg.LongRunning }

// ToolType implements [runtime.ToolTyper] with ADK's class names.
func (f *Function) ToolType() string {
	if f.cfg.LongRunning {
		return "LongRunningFunctionTool"
	}
	return "FunctionTool"
}

// Run implements [runtime.Tool]: a call missing mandatory arguments is
// answered with ADK's error without running the function.
func (f *Function) Run(tctx *runtime.ToolContext, args *structpb.Struct) (any, error) {
	if resp := MissingArgs(f.cfg.Name, f.required, args); resp != nil {
		return resp, nil
	}
	if f.cfg.RequireConfirmation {
		if resp, err := Confirm(tctx, f.cfg.Name); resp != nil || err != nil {
			return resp, err
		}
	}
	if f.cfg.AuthConfig != nil && tctx.AuthResponse == nil {
		tctx.RequestCredential(f.cfg.AuthConfig)
		return nil, nil
	}
	return f.cfg.Run(tctx, args)
}

// Confirm applies ADK's confirmation rule to a call of the named tool: with
// no answer yet it requests one and returns the error the model sees; a
// rejection returns ADK's rejection; an approval returns nil and the tool
// runs. The error is a request that could not be made (see
// [runtime.ToolContext.RequestConfirmation]).
func Confirm(tctx *runtime.ToolContext, name string) (*structpb.Struct, error) {
	switch {
	case tctx.Confirmation == nil:
		if err := tctx.RequestConfirmation("Please approve or reject the tool call "+name+
			"() by responding with a FunctionResponse with an expected ToolConfirmation payload.", nil); err != nil {
			return nil, err
		}
		tctx.Actions.SkipSummarization = true
		return errorResult("This tool call requires confirmation, please approve or reject."), nil
	case !tctx.Confirmation.Confirmed:
		return errorResult("This tool call is rejected."), nil
	}
	return nil, nil
}

func errorResult(msg string) *structpb.Struct {
	return &structpb.Struct{Fields: map[string]*structpb.Value{"error": structpb.NewStringValue(msg)}}
}
