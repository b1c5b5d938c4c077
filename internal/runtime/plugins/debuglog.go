package plugins

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"sync"
	"time"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/pyfmt"
)

// DefaultDebugLogMaxBytes is the default of DebugLoggingPlugin's
// max_file_bytes: how large the plugin lets its file grow.
const DefaultDebugLogMaxBytes = 64 << 20

// newDebugLogging is ADK's DebugLoggingPlugin: it records an invocation's
// start, its agents' starts and ends, every model request and response
// (contents, tools, config; inline data without its bytes), model and tool
// errors, tool calls and results, the events, and at the end the session
// state (include_session_state) and the number of events, then appends
// them to output_path (default "adk_debug.yaml", relative to the working
// directory) as one YAML document, written as ADK writes it. The system
// instruction is recorded whole, or only its length with
// include_system_instruction false. As in ADK, an invocation that fails
// writes nothing (its record goes when its context ends), and no
// user_message entry is ever written: that hook runs before before_run
// starts the record, so ADK warns and skips it.
//
// Where agentsvc's record differs from ADK's: the keys of protobuf
// objects (state, tool arguments and results) are sorted, where Python
// keeps their insertion order; events are recorded once stored, so their
// state_delta shows no "temp:" keys; a tool error's error_type is
// ValueError for an unknown tool and ToolError otherwise, a model error's
// ClientError or ServerError for an API answer and Exception otherwise
// (ADK names the Python exception's class).
//
// max_file_bytes, agentsvc's own argument (default
// [DefaultDebugLogMaxBytes]), bounds the file: a document that would take
// it past the bound is not written, with a warning, and an invocation
// stops collecting once its document alone is past it. The file is created
// readable by its owner only.
func newDebugLogging(a *arguments) (*runtime.Plugin, error) {
	name, err := a.string("name", "debug_logging_plugin")
	if err != nil {
		return nil, err
	}
	d := &debugLog{invocations: map[string]*debugInvocation{}, maxBytes: DefaultDebugLogMaxBytes}
	if d.path, err = a.string("output_path", "adk_debug.yaml"); err != nil {
		return nil, err
	}
	if d.path == "" {
		return nil, errors.New("args.output_path: must not be empty")
	}
	if d.includeState, err = a.bool("include_session_state", true); err != nil {
		return nil, err
	}
	if d.includeSystemInstruction, err = a.bool("include_system_instruction", true); err != nil {
		return nil, err
	}
	if n, ok, err := a.int("max_file_bytes"); err != nil {
		return nil, err
	} else if ok {
		if n <= 0 {
			return nil, fmt.Errorf("args.max_file_bytes: must be a positive integer, got %d", n)
		}
		d.maxBytes = n
	}
	return d.plugin(name), nil
}

// plugin returns the plugin that records into d.
func (d *debugLog) plugin(name string) *runtime.Plugin {
	return &runtime.Plugin{
		Name: name, OnUserMessage: d.onUserMessage, BeforeRun: d.beforeRun, OnEvent: d.onEvent, AfterRun: d.afterRun,
		BeforeAgent: d.beforeAgent, AfterAgent: d.afterAgent,
		BeforeModel: d.beforeModel, AfterModel: d.afterModel, OnModelError: d.onModelError,
		BeforeTool: d.beforeTool, AfterTool: d.afterTool, OnToolError: d.onToolError,
	}
}

type debugLog struct {
	path                     string
	includeState             bool
	includeSystemInstruction bool
	maxBytes                 int

	mu          sync.Mutex
	invocations map[string]*debugInvocation
	// fileMu keeps documents whole and the size check true when several
	// invocations end at once.
	fileMu sync.Mutex
}

// debugInvocation is the document of a running invocation, its entries
// already written out as YAML.
type debugInvocation struct {
	header  []byte
	entries []byte
	// tooLarge is set once the document is past the file's bound.
	tooLarge bool
	// stop cancels the clean-up for an invocation that never ends.
	stop func() bool
}

// timestamp is Python's datetime.now().isoformat(): local time,
// microseconds unless there are none.
func timestamp(t time.Time) string {
	s := t.Format("2006-01-02T15:04:05")
	if us := t.Nanosecond() / 1000; us != 0 {
		s += fmt.Sprintf(".%06d", us)
	}
	return s
}

// add records an entry of the invocation, with ADK's warning when the
// invocation has no document.
func (d *debugLog) add(ctx context.Context, invocationID, entryType string, agentName any, data pyfmt.Dict) {
	entry := pyfmt.Dict{{Key: "timestamp", Value: timestamp(time.Now())}, {Key: "entry_type", Value: entryType},
		{Key: "invocation_id", Value: invocationID}}
	if agentName != nil {
		entry = append(entry, pyfmt.Item{Key: "agent_name", Value: agentName})
	}
	entry = append(entry, pyfmt.Item{Key: "data", Value: data})
	// An entry prints alone as it prints among the document's entries.
	text := pyfmt.AppendYAML(nil, []any{entry}, pyfmt.YAMLWidth)
	d.mu.Lock()
	defer d.mu.Unlock()
	inv := d.invocations[invocationID]
	if inv == nil {
		slog.WarnContext(ctx, "No debug state for invocation, skipping entry", "invocation", invocationID)
		return
	}
	if inv.tooLarge {
		return
	}
	inv.entries = append(inv.entries, text...)
	if len(inv.header)+len(inv.entries) > d.maxBytes {
		inv.tooLarge, inv.entries = true, nil
	}
}

func (d *debugLog) onUserMessage(ictx *runtime.InvocationContext, msg *v1.Content) (*v1.Content, error) {
	d.add(ictx.Context(), ictx.InvocationID, "user_message", nil, pyfmt.Dict{{Key: "content", Value: contentData(msg)}})
	return nil, nil
}

func (d *debugLog) beforeRun(ictx *runtime.InvocationContext) (*v1.Content, error) {
	header := pyfmt.Dict{{Key: "invocation_id", Value: ictx.InvocationID}, {Key: "session_id", Value: ictx.SessionID()},
		{Key: "app_name", Value: ictx.App().Name}, {Key: "user_id", Value: ictx.UserID()},
		{Key: "start_time", Value: timestamp(time.Now())}}
	inv := &debugInvocation{header: append(pyfmt.AppendYAML([]byte("---\n"), header, pyfmt.YAMLWidth), "entries:\n"...)}
	// A failed invocation never reaches after_run: its document goes when
	// its context ends.
	id := ictx.InvocationID
	inv.stop = context.AfterFunc(ictx.Context(), func() { d.drop(id, inv) })
	d.mu.Lock()
	if old := d.invocations[id]; old != nil {
		old.stop()
	}
	d.invocations[id] = inv
	d.mu.Unlock()
	d.add(ictx.Context(), id, "invocation_start", ictx.Agent.Name(), pyfmt.Dict{{Key: "branch", Value: orNone(ictx.Branch)}})
	return nil, nil
}

// drop forgets the document inv of an invocation, unless a later run of
// the invocation replaced it.
func (d *debugLog) drop(id string, inv *debugInvocation) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.invocations[id] == inv {
		delete(d.invocations, id)
	}
}

func (d *debugLog) onEvent(ictx *runtime.InvocationContext, ev *v1.Event) (*v1.Event, error) {
	d.add(ictx.Context(), ictx.InvocationID, "event", orNone(ev.GetAuthor()), eventData(ev))
	return nil, nil
}

func (d *debugLog) beforeAgent(agent runtime.Agent, cctx *runtime.CallbackContext) (*v1.Content, error) {
	d.add(cctx.Context(), cctx.InvocationID, "agent_start", agent.Name(), pyfmt.Dict{{Key: "branch", Value: orNone(cctx.Branch)}})
	return nil, nil
}

func (d *debugLog) afterAgent(agent runtime.Agent, cctx *runtime.CallbackContext) (*v1.Content, error) {
	d.add(cctx.Context(), cctx.InvocationID, "agent_end", agent.Name(), pyfmt.Dict{})
	return nil, nil
}

func (d *debugLog) beforeModel(cctx *runtime.CallbackContext, req *v1.LlmRequest) (*v1.LlmResponse, error) {
	d.add(cctx.Context(), cctx.InvocationID, "llm_request", cctx.Agent.Name(), requestData(req, d.includeSystemInstruction))
	return nil, nil
}

func (d *debugLog) afterModel(cctx *runtime.CallbackContext, resp *v1.LlmResponse) (*v1.LlmResponse, error) {
	d.add(cctx.Context(), cctx.InvocationID, "llm_response", cctx.Agent.Name(), responseData(resp))
	return nil, nil
}

func (d *debugLog) onModelError(cctx *runtime.CallbackContext, req *v1.LlmRequest, cause error) (*v1.LlmResponse, error) {
	msg := runtime.ModelAPIErrorText(cause)
	if msg == "" {
		msg = cause.Error()
	}
	d.add(cctx.Context(), cctx.InvocationID, "llm_error", cctx.Agent.Name(), pyfmt.Dict{
		{Key: "error_type", Value: modelErrorType(cause)}, {Key: "error_message", Value: msg}, {Key: "model", Value: orNone(req.GetModel())}})
	return nil, nil
}

func (d *debugLog) beforeTool(tctx *runtime.ToolContext, tool runtime.Tool, args *structpb.Struct) (*structpb.Struct, error) {
	d.add(tctx.Context(), tctx.InvocationID, "tool_call", tctx.Agent.Name(), pyfmt.Dict{{Key: "tool_name", Value: tool.Name()},
		{Key: "function_call_id", Value: orNone(tctx.FunctionCallID)}, {Key: "args", Value: args}})
	return nil, nil
}

func (d *debugLog) afterTool(tctx *runtime.ToolContext, tool runtime.Tool, _, result *structpb.Struct) (*structpb.Struct, error) {
	d.add(tctx.Context(), tctx.InvocationID, "tool_response", tctx.Agent.Name(), pyfmt.Dict{{Key: "tool_name", Value: tool.Name()},
		{Key: "function_call_id", Value: orNone(tctx.FunctionCallID)}, {Key: "result", Value: toolResult(tctx, result)}})
	return nil, nil
}

func (d *debugLog) onToolError(tctx *runtime.ToolContext, tool runtime.Tool, args *structpb.Struct, cause error) (*structpb.Struct, error) {
	d.add(tctx.Context(), tctx.InvocationID, "tool_error", tctx.Agent.Name(), pyfmt.Dict{{Key: "tool_name", Value: tool.Name()},
		{Key: "function_call_id", Value: orNone(tctx.FunctionCallID)}, {Key: "args", Value: args},
		{Key: "error_type", Value: errorType(cause)}, {Key: "error_message", Value: cause.Error()}})
	return nil, nil
}

// afterRun ends the invocation's document and appends it to the file.
func (d *debugLog) afterRun(ictx *runtime.InvocationContext) error {
	ctx, id := ictx.Context(), ictx.InvocationID
	d.mu.Lock()
	inv := d.invocations[id]
	d.mu.Unlock()
	if inv == nil {
		slog.WarnContext(ctx, "No debug state for invocation, skipping write", "invocation", id)
		return nil
	}
	if d.includeState {
		d.add(ctx, id, "session_state_snapshot", nil, pyfmt.Dict{{Key: "state", Value: ictx.StateSnapshot()},
			{Key: "event_count", Value: int64(len(ictx.Events()))}})
	}
	d.add(ctx, id, "invocation_end", nil, pyfmt.Dict{})
	inv.stop()
	d.mu.Lock()
	delete(d.invocations, id)
	tooLarge, doc := inv.tooLarge, append(inv.header, inv.entries...)
	d.mu.Unlock()
	if tooLarge {
		slog.WarnContext(ctx, "debug log: invocation not written, its document is past max_file_bytes",
			"invocation", id, "path", d.path, "max_file_bytes", d.maxBytes)
		return nil
	}
	if err := d.write(doc); errors.Is(err, errDebugLogFull) {
		slog.WarnContext(ctx, "debug log: invocation not written, the file would grow past max_file_bytes",
			"invocation", id, "path", d.path, "max_file_bytes", d.maxBytes)
		return nil
	} else if err != nil {
		slog.ErrorContext(ctx, "Failed to write debug data", "err", err)
		return nil
	}
	slog.DebugContext(ctx, "Wrote debug data for invocation", "invocation", id, "path", d.path)
	return nil
}

// errDebugLogFull is the failure to write a document that would take the
// file past max_file_bytes.
var errDebugLogFull = errors.New("the file would grow past max_file_bytes")

// write appends a document to the file, unless the file would grow past
// its bound.
func (d *debugLog) write(doc []byte) error {
	d.fileMu.Lock()
	defer d.fileMu.Unlock()
	size := int64(0)
	if fi, err := os.Stat(d.path); err == nil {
		size = fi.Size()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if size+int64(len(doc)) > int64(d.maxBytes) {
		return errDebugLogFull
	}
	f, err := os.OpenFile(d.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(doc); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}
