package conformance

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"path/filepath"
	"reflect"
	"sync"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/tools"
)

// ReplayKey is the state key that asks for replay; RecordKey asks for
// recording (see [Recorder]).
const (
	ReplayKey = "_adk_replay_config"
	RecordKey = "_adk_recordings_config"
)

// ErrVerification fails a run whose model or tool request differs from the
// recorded one, or that makes more calls than were recorded (ADK's
// ReplayVerificationError); ErrConfig one whose replay configuration is
// invalid or whose recordings cannot be read (ADK's ReplayConfigError).
// Errors match them with errors.Is and carry the whole story.
var (
	ErrVerification = &runtime.Error{Code: runtime.CodeFailedPrecondition, Reason: v1.ErrorReason_REPLAY_VERIFICATION_FAILED.String(),
		Message: "replay verification failed"}
	ErrConfig = &runtime.Error{Code: runtime.CodeInvalidArgument, Reason: v1.ErrorReason_REPLAY_CONFIG.String(),
		Message: "replay configuration"}
)

// failure returns an error of kind's code and reason saying what happened.
func failure(kind *runtime.Error, format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	return &runtime.Error{Code: kind.Code, Reason: kind.Reason, Message: kind.Message + ": " + err.Error(), Err: errors.Unwrap(err)}
}

// Replayer is the plugin that answers replayed invocations. Safe for
// concurrent use.
type Replayer struct {
	root   string
	active active[*replay]
}

// NewReplayer returns the replay plugin for case directories under root.
func NewReplayer(root string) (*Replayer, error) {
	real, err := realRoot(root)
	if err != nil {
		return nil, err
	}
	return &Replayer{root: real}, nil
}

// realRoot is the conformance directory as an absolute path without
// symbolic links.
func realRoot(root string) (string, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("conformance directory: %w", err)
	}
	return real, nil
}

// replay is the replay of one invocation: the recordings of its user
// message and how far each agent got through them.
type replay struct {
	msg        int
	recordings *recordings
	mu         sync.Mutex
	llmNext    map[string]int
	toolNext   map[string]int
}

// Plugin returns the runtime plugin.
func (r *Replayer) Plugin() *runtime.Plugin {
	return &runtime.Plugin{
		Name:       "adk_replay",
		BeforeRun:  r.beforeRun,
		AfterRun:   r.afterRun,
		Model:      r.model,
		BeforeTool: r.beforeTool,
	}
}

// beforeRun loads the recordings when the session state asks for replay.
func (r *Replayer) beforeRun(ictx *runtime.InvocationContext) (*v1.Content, error) {
	path, msg, ok, err := caseConfig(ictx, r.root, ReplayKey)
	if !ok {
		return nil, err
	}
	recs, err := loadRecordings(path)
	if err != nil {
		return nil, failure(ErrConfig, "%w", err)
	}
	return nil, r.active.add(ictx, &replay{msg: msg, recordings: recs, llmNext: map[string]int{}, toolNext: map[string]int{}})
}

func (r *Replayer) afterRun(ictx *runtime.InvocationContext) error {
	r.active.remove(ictx)
	return nil
}

func (r *Replayer) of(ictx *runtime.InvocationContext) *replay {
	rp, _ := r.active.get(ictx)
	return rp
}

// model stands in for the agent's model with its next recorded call.
func (r *Replayer) model(ictx *runtime.InvocationContext, name string) (models.Model, error) {
	rp := r.of(ictx)
	if rp == nil {
		return nil, nil
	}
	agent := ictx.Agent.Name()
	rec, i, err := rp.next(agent, rp.llmNext, func(x recording) bool { return x.LLM != nil })
	if err != nil {
		return nil, failure(ErrVerification, "runtime sent more LLM requests than expected for agent %q: %w", agent, err)
	}
	return &recordedModel{name: name, agent: agent, msg: rp.msg, index: i, rec: rec.LLM}, nil
}

// next returns the agent's next recording that keep accepts in the turn.
func (rp *replay) next(agent string, counters map[string]int, keep func(recording) bool) (recording, int, error) {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	i := counters[agent]
	seen := 0
	for _, x := range rp.recordings.Recordings {
		if x.AgentName != agent || x.UserMessageIndex != rp.msg || !keep(x) {
			continue
		}
		if seen == i {
			counters[agent] = i + 1
			return x, i, nil
		}
		seen++
	}
	return recording{}, i, fmt.Errorf("expected %d, but got request at index %d", seen, i)
}

// beforeTool checks a tool call against the next recorded one and answers
// it with the recorded response. Tools that live in the service run first,
// for what they do to the session (a transfer, an escalation), as ADK runs
// every tool; the client's tools cannot run here.
func (r *Replayer) beforeTool(tctx *runtime.ToolContext, tool runtime.Tool, args *structpb.Struct) (*structpb.Struct, error) {
	rp := r.of(tctx.InvocationContext)
	if rp == nil {
		return nil, nil
	}
	agent := tctx.Agent.Name()
	rec, i, err := rp.next(agent, rp.toolNext, func(x recording) bool { return x.Tool != nil })
	if err != nil {
		return nil, failure(ErrVerification, "runtime sent more tool requests than expected for agent %q: %w", agent, err)
	}
	call := rec.Tool.Call
	if call == nil || rec.Tool.Response == nil {
		return nil, failure(ErrConfig, "tool recording %d of agent %q lacks its call or response", i, agent)
	}
	if call.Name != tool.Name() {
		return nil, failure(ErrVerification, "tool name mismatch for agent %q at index %d: recorded %q, current %q", agent, i, call.Name, tool.Name())
	}
	got := args.AsMap()
	want := call.Args
	if want == nil {
		want = map[string]any{}
	}
	if !reflect.DeepEqual(normalize(got), normalize(want)) {
		return nil, failure(ErrVerification, "tool args mismatch for agent %q at index %d: recorded %v, current %v", agent, i, want, got)
	}
	if _, client := tool.(*tools.ClientTool); !client {
		if _, err := tool.Run(tctx, args); err != nil {
			return nil, err
		}
	}
	out, err := structpb.NewStruct(rec.Tool.Response.Response)
	if err != nil {
		return nil, failure(ErrConfig, "recorded tool response: %w", err)
	}
	return out, nil
}

// recordedModel answers one model call from its recording.
type recordedModel struct {
	name  string
	agent string
	msg   int
	index int
	rec   *llmRecording
}

func (m *recordedModel) Name() string { return m.name }

// GenerateContent checks req against the recorded request and yields the
// recorded responses.
func (m *recordedModel) GenerateContent(_ context.Context, req *v1.LlmRequest, _ bool) iter.Seq2[*v1.LlmResponse, error] {
	return func(yield func(*v1.LlmResponse, error) bool) {
		if diff := compareRequest(m.rec.Request, req); diff != "" {
			yield(nil, failure(ErrVerification, "LLM request mismatch in turn %d for agent %q (index %d): %s", m.msg, m.agent, m.index, diff))
			return
		}
		for _, raw := range m.rec.Responses {
			resp, err := response(raw)
			if err != nil {
				yield(nil, failure(ErrConfig, "%w", err))
				return
			}
			if !yield(resp, nil) {
				return
			}
		}
	}
}
