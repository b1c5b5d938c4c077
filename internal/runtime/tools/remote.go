package tools

import (
	"context"
	"errors"
	"fmt"
	"time"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/features"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// DefaultClientToolTimeout bounds how long a client tool call waits for the
// client's result when no timeout is configured.
const DefaultClientToolTimeout = 60 * time.Second

// ClientChannel carries tool calls to the client that declared the tools
// and brings their results back. The service implements it on top of its
// Connect stream; it must be safe for concurrent use, since the calls of one
// model turn run in parallel.
type ClientChannel interface {
	// CallTool sends call to the client and returns the client's result. It
	// returns ctx's error once ctx ends without a result.
	CallTool(ctx context.Context, call *ClientCall) (*ClientResult, error)
}

// ClientDeclaration is what a client declares of one of its tools.
type ClientDeclaration struct {
	Name        string
	Description string
	// Parameters and Response are JSON schemas; either may be nil.
	Parameters *structpb.Struct
	Response   *structpb.Struct
	// LongRunning tools follow ADK's long-running rules (T6).
	LongRunning bool
	// RequireConfirmation makes every call wait for the user's approval.
	RequireConfirmation bool
}

// ClientCall is one call of a client tool, as sent to the client.
type ClientCall struct {
	// CallID is the call's id, the function call's own.
	CallID       string
	InvocationID string
	// AgentName is the agent that called the tool.
	AgentName    string
	FunctionCall *v1.FunctionCall
	// State is the session state the tool may read.
	State *structpb.Struct
	// Confirmation is the user's answer when the call runs again after a
	// confirmation request.
	Confirmation *v1.ToolConfirmation
	// AuthResponse is the auth config with the client's credential when
	// the call runs again after a credential request.
	AuthResponse *structpb.Struct
}

// ClientResult is the client's answer to a call.
type ClientResult struct {
	// Response is the tool's result; nil stands for none.
	Response *structpb.Value
	// Error, when set, is the tool's failure, for the model to read.
	Error string
	// Actions are applied as a local tool's actions would be.
	Actions *v1.EventActions
	// Artifacts are files the tool saves, by name, as a local tool's
	// save_artifact calls.
	Artifacts map[string]*v1.Part
}

// ClientToolConfig declares a tool that lives in the client.
type ClientToolConfig struct {
	// Declaration is what the client declared.
	Declaration ClientDeclaration
	// Channel reaches the client. Required.
	Channel ClientChannel
	// Timeout bounds each call; after it the model gets an error response.
	// Zero means [DefaultClientToolTimeout].
	Timeout time.Duration
}

// ClientTool is a tool that lives in the client: each call becomes a
// [ClientCall] sent through the client channel, and the client's
// [ClientResult] becomes the call's result. It is immutable and safe for
// concurrent use.
type ClientTool struct {
	name        string
	description string
	longRunning bool
	// confirm makes every call wait for the user's approval (T7).
	confirm  bool
	decl     *v1.FunctionDeclaration
	required []string
	channel  ClientChannel
	timeout  time.Duration
}

// errCallTimeout is the cause of a call context whose own timeout elapsed.
var errCallTimeout = errors.New("tools: client tool call timed out")

// NewClientTool returns the client tool of cfg.
func NewClientTool(cfg ClientToolConfig) (*ClientTool, error) {
	d := cfg.Declaration
	if d.Name == "" {
		return nil, errors.New("tools: client tool name is required")
	}
	if cfg.Channel == nil {
		return nil, errors.New("tools: client tool " + d.Name + " has no channel")
	}
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = DefaultClientToolTimeout
	}
	return &ClientTool{
		name:        d.Name,
		description: d.Description,
		longRunning: d.LongRunning,
		confirm:     d.RequireConfirmation,
		decl:        Declaration(d.Name, d.Description, d.Parameters, d.Response, d.LongRunning),
		required:    Required(d.Parameters),
		channel:     cfg.Channel,
		timeout:     timeout,
	}, nil
}

// Name implements [runtime.Tool].
func (t *ClientTool) Name() string { return t.name }

// Description implements [runtime.Tool].
func (t *ClientTool) Description() string { return t.description }

// Declaration implements [runtime.Tool]; a long-running tool's description
// carries ADK's note.
func (t *ClientTool) Declaration() *v1.FunctionDeclaration { return t.decl }

// IsLongRunning implements [runtime.Tool].
func (t *ClientTool) IsLongRunning() bool { return t.longRunning }

// ToolType implements [runtime.ToolTyper]: a tool that runs in the client,
// reached over its Connect stream.
func (t *ClientTool) ToolType() string { return "ClientTool" }

// Run implements [runtime.Tool]. A call that lacks mandatory arguments is
// answered with ADK's error without reaching the client. Otherwise the call
// is sent with the state the tool may read (the session's, with the call's
// pending delta applied) and Run waits for the result, the timeout or the
// end of the invocation:
//   - a non-empty error becomes {"error": text};
//   - an object response is the result as is, any other value is wrapped
//     as {"result": value} by the flow;
//   - no response (absent or null) is {"result": null}, except for a
//     long-running tool, whose call then has no result: no response event;
//   - the result's actions are applied to the call's actions;
//   - the timeout becomes an {"error": ...} response the model can read;
//   - the end of the invocation (cancellation, a lost client) is an error.
func (t *ClientTool) Run(tctx *runtime.ToolContext, args *structpb.Struct) (any, error) {
	if resp := MissingArgs(t.name, t.required, args); resp != nil {
		return resp, nil
	}
	if t.confirm {
		if resp, err := Confirm(tctx, t.name); resp != nil || err != nil {
			return resp, err
		}
	}
	parent := tctx.Context()
	ctx, cancel := context.WithTimeoutCause(parent, t.timeout, errCallTimeout)
	defer cancel()
	res, err := t.channel.CallTool(ctx, &ClientCall{
		CallID:       tctx.FunctionCallID,
		InvocationID: tctx.InvocationID,
		AgentName:    tctx.Agent.Name(),
		FunctionCall: &v1.FunctionCall{Id: tctx.FunctionCallID, Name: t.name, Args: args},
		State:        readableState(tctx),
		Confirmation: tctx.Confirmation,
		AuthResponse: tctx.AuthResponse,
	})
	if err != nil {
		if parent.Err() == nil && errors.Is(context.Cause(ctx), errCallTimeout) {
			return errorResult(fmt.Sprintf("Tool '%s' did not return a result within %s.", t.name, t.timeout)), nil
		}
		return nil, fmt.Errorf("tools: client tool %s: %w", t.name, err)
	}
	if res == nil {
		res = &ClientResult{}
	}
	if err := applyActions(tctx, res.Actions); err != nil {
		return nil, err
	}
	if err := tctx.SaveArtifacts(tctx.Actions, res.Artifacts); err != nil {
		return nil, fmt.Errorf("tools: client tool %s: %w", t.name, err)
	}
	if res.Error != "" {
		return errorResult(res.Error), nil
	}
	v := res.Response
	if _, isNull := v.GetKind().(*structpb.Value_NullValue); v == nil || isNull {
		// Nothing, as a Python tool that returns None: the flow makes it
		// {"result": null}, or no result for a long-running tool.
		return nil, nil
	}
	return v, nil
}

// readableState is the session state with the call's pending delta (what
// before-tool callbacks set) applied: what the tool would read locally.
func readableState(tctx *runtime.ToolContext) *structpb.Struct {
	state := tctx.StateSnapshot()
	if state.Fields == nil {
		state.Fields = map[string]*structpb.Value{}
	}
	for k, v := range tctx.Actions.GetStateDelta().GetFields() {
		state.Fields[k] = v
	}
	// A call run again after a credential request reads the client's auth
	// response where ADK's tool_context.get_auth_response finds it.
	if auth := tctx.AuthResponse; auth != nil {
		state.Fields[AuthResponseKey(auth)] = structpb.NewStructValue(auth)
	}
	return state
}

// AuthResponseKey is the state key under which a tool run again after a
// credential request finds the client's answer: "temp:" and the auth
// config's credentialKey ("temp:adk_auth_response" when it has none).
func AuthResponseKey(auth *structpb.Struct) string {
	key := auth.GetFields()["credentialKey"].GetStringValue()
	if key == "" {
		key = "adk_auth_response"
	}
	return "temp:" + key
}

// applyActions applies what a client tool did to the call's actions, as a
// local tool's writes would land: state keys one by one, skip_summarization
// and escalate when set, transfer_to_agent when named, and a confirmation
// or credential request (requested_tool_confirmations,
// requested_auth_configs) for the call. Other fields are not settable by a
// client tool and are ignored. A confirmation request while the app's
// TOOL_CONFIRMATION is off fails the call, as the request raises in ADK,
// and nothing of the result is applied.
func applyActions(tctx *runtime.ToolContext, a *v1.EventActions) error {
	if a == nil {
		return nil
	}
	if len(a.GetRequestedToolConfirmations()) > 0 && !tctx.App().Features.Enabled(features.ToolConfirmation) {
		return runtime.FeatureNotEnabled(features.ToolConfirmation)
	}
	state := tctx.State()
	for k, v := range a.GetStateDelta().GetFields() {
		state.Set(k, v)
	}
	if a.SkipSummarization {
		tctx.Actions.SkipSummarization = true
	}
	if a.Escalate {
		tctx.Actions.Escalate = true
	}
	if a.TransferToAgent != "" {
		tctx.Actions.TransferToAgent = a.TransferToAgent
	}
	// A confirmation or credential request is for this call, whatever key
	// the client used.
	var err error
	if c, ok := a.GetRequestedToolConfirmations()[tctx.FunctionCallID]; ok {
		err = tctx.RequestConfirmation(c.GetHint(), c.GetPayload())
	} else if len(a.GetRequestedToolConfirmations()) == 1 {
		for _, c := range a.GetRequestedToolConfirmations() {
			err = tctx.RequestConfirmation(c.GetHint(), c.GetPayload())
		}
	}
	if cfg, ok := a.GetRequestedAuthConfigs()[tctx.FunctionCallID]; ok {
		tctx.RequestCredential(cfg)
	} else if len(a.GetRequestedAuthConfigs()) == 1 {
		for _, cfg := range a.GetRequestedAuthConfigs() {
			tctx.RequestCredential(cfg)
		}
	}
	return err
}

// Remote is the toolset of an agent's remote tools: the tools its Agent
// Config names that are not built in. Each step it offers the tools of that
// name that the invocation's client declared, in the order the agent names
// them; a named tool the client did not declare (or every tool, when the
// invocation has no client) is absent, so a call to it is a call to an
// unknown tool. It is immutable and safe for concurrent use.
type Remote struct {
	names []string
}

// NewRemote returns the toolset of the named remote tools.
func NewRemote(names ...string) *Remote {
	return &Remote{names: append([]string(nil), names...)}
}

// Names returns the names of the toolset's tools; the slice must not be
// modified.
func (r *Remote) Names() []string { return r.names }

// Tools implements [runtime.Toolset].
func (r *Remote) Tools(ictx *runtime.InvocationContext) ([]runtime.Tool, error) {
	client := ictx.ClientTools()
	if client == nil {
		return nil, nil
	}
	declared := client.Tools()
	if len(declared) == 0 {
		return nil, nil
	}
	var out []runtime.Tool
	for _, name := range r.names {
		for _, t := range declared {
			if t.Name() == name {
				out = append(out, t)
				break
			}
		}
	}
	return out, nil
}
