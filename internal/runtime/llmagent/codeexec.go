package llmagent

import (
	"fmt"
	"iter"
	"strings"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/codeexec"
	"github.com/agentsvc/agentsvc/internal/runtime/tools"
)

// codeExecutionRequest is ADK's _CodeExecutionRequestProcessor: Gemini's
// code execution tool for a built-in executor; for a client executor with
// optimize_data_file, the request's data files held for the code and each
// new one explored (the events yielded are added to the request); then
// every content's trailing code part turned into text.
func (a *Agent) codeExecutionRequest(ictx *runtime.InvocationContext, r *request) iter.Seq2[*v1.Event, error] {
	return func(yield func(*v1.Event, error) bool) {
		e := a.cfg.CodeExecutor
		if e == nil {
			return
		}
		v2 := ictx.App().Behavior == runtime.Behavior2x
		if e.Kind() == codeexec.BuiltIn {
			if err := addCodeExecutionTool(r.llm, v2); err != nil {
				yield(nil, err)
				return
			}
		} else if e.OptimizeDataFile() {
			for ev, err := range a.exploreDataFiles(ictx, r) {
				if !yield(ev, err) || err != nil {
					return
				}
			}
		}
		for i, c := range r.llm.Contents {
			r.llm.Contents[i] = e.ConvertParts(c)
		}
	}
}

// addCodeExecutionTool is ADK's BuiltInCodeExecutor.process_llm_request:
// Gemini 2.0 or later, any Gemini in ADK 2.x (v2).
func addCodeExecutionTool(req *v1.LlmRequest, v2 bool) error {
	supported := tools.SupportsGemini2Tools
	if v2 {
		supported = tools.SupportsGeminiTools
	}
	if !supported(req.GetModel()) {
		return &runtime.Error{Code: runtime.CodeFailedPrecondition, Reason: v1.ErrorReason_CODE_EXECUTOR_NOT_SUPPORTED.String(),
			Message: "Gemini code execution tool is not supported for model " + req.GetModel()}
	}
	if req.Config == nil {
		req.Config = &v1.GenerateContentConfig{}
	}
	req.Config.Tools = append(req.Config.Tools, &v1.Tool{CodeExecution: &structpb.Struct{}})
	return nil
}

// exploreDataFiles is ADK's _run_pre_processor for a client executor. ADK
// 2.x first adds its instruction to write fenced code blocks.
func (a *Agent) exploreDataFiles(ictx *runtime.InvocationContext, r *request) iter.Seq2[*v1.Event, error] {
	return func(yield func(*v1.Event, error) bool) {
		e := a.cfg.CodeExecutor
		v2 := ictx.App().Behavior == runtime.Behavior2x
		if v2 {
			runtime.AppendInstruction(r.llm, e.FenceInstruction())
		}
		st := codeexec.LoadState(ictx)
		if st.ErrorCount(ictx.InvocationID) >= e.ErrorRetryAttempts() {
			return
		}
		runner, err := a.codeRunner(ictx)
		if err != nil {
			yield(nil, err)
			return
		}
		r.llm.Contents = append([]*v1.Content(nil), r.llm.Contents...)
		all := codeexec.ExtractDataFiles(st, r.llm.Contents, v2)
		processed := map[string]bool{}
		for _, n := range st.ProcessedFileNames() {
			processed[n] = true
		}
		for _, f := range all {
			if processed[f.Name] {
				continue
			}
			code := codeexec.ExploreCode(f, v2)
			if code == "" {
				return
			}
			ev := ictx.NewEvent()
			ev.Content = &v1.Content{Role: "model", Parts: []*v1.Part{{Text: codeexec.ProcessingText(f.Name)},
				codeexec.ExecutableCodePart(code)}}
			r.llm.Contents = append(r.llm.Contents, proto.CloneOf(ev.Content))
			if !yield(ev, nil) {
				return
			}
			res, err := a.runCode(ictx, runner, st, &codeexec.Call{Language: "python", Code: code, InputFiles: []codeexec.File{f}})
			if err != nil {
				yield(nil, err)
				return
			}
			st.AddProcessedFileNames(f.Name)
			ev, err = a.codeResultEvent(ictx, st, res)
			if err != nil {
				yield(nil, err)
				return
			}
			if !yield(ev, nil) {
				return
			}
			r.llm.Contents = append(r.llm.Contents, proto.CloneOf(ev.Content))
		}
	}
}

// codeExecutionResponse is ADK's _CodeExecutionResponseProcessor, run on a
// final (not partial) answer. For a built-in executor it saves the
// answer's images as artifacts and yields the event of their versions. For
// a client executor, unless the invocation's failures reached
// error_retry_attempts, the answer's first code block is run: the answer,
// cut after the block, and the result are yielded, and resp's content is
// dropped so that the model is asked again.
func (a *Agent) codeExecutionResponse(ictx *runtime.InvocationContext, resp *v1.LlmResponse) iter.Seq2[*v1.Event, error] {
	return func(yield func(*v1.Event, error) bool) {
		e := a.cfg.CodeExecutor
		if e == nil || resp.GetPartial() || resp.GetContent() == nil {
			return
		}
		if e.Kind() == codeexec.BuiltIn {
			ev, err := saveGeneratedImages(ictx, resp)
			yield(ev, err)
			return
		}
		st := codeexec.LoadState(ictx)
		if st.ErrorCount(ictx.InvocationID) >= e.ErrorRetryAttempts() {
			return
		}
		content := proto.CloneOf(resp.Content)
		var thoughts []*v1.Part
		if ictx.App().Behavior == runtime.Behavior2x {
			content, thoughts = splitThoughts(content)
		}
		block := e.ExtractAndTruncate(content)
		if block == nil {
			return
		}
		runner, err := a.codeRunner(ictx)
		if err != nil {
			yield(nil, err)
			return
		}
		if len(thoughts) > 0 {
			content.Parts = append(thoughts, content.Parts...)
		}
		ev := ictx.NewEvent()
		ev.Content = content
		if !yield(ev, nil) {
			return
		}
		res, err := a.runCode(ictx, runner, st, &codeexec.Call{Language: block.Language, Code: block.Code, InputFiles: st.InputFiles()})
		if err != nil {
			yield(nil, err)
			return
		}
		ev, err = a.codeResultEvent(ictx, st, res)
		if err != nil {
			yield(nil, err)
			return
		}
		resp.Content = nil
		yield(ev, nil)
	}
}

// codeRunner is the client that runs the agent's code; without one the
// invocation fails before the code is stored.
func (a *Agent) codeRunner(ictx *runtime.InvocationContext) (codeexec.Runner, error) {
	runner, ok := ictx.ClientTools().(codeexec.Runner)
	if !ok {
		return nil, ErrNoCodeRunner(a.cfg.Name)
	}
	return runner, nil
}

// runCode sends call to the client, with the execution id of a stateful
// executor (ADK's _get_or_set_execution_id: the session's id).
func (a *Agent) runCode(ictx *runtime.InvocationContext, runner codeexec.Runner, st *codeexec.State, call *codeexec.Call) (*codeexec.Result, error) {
	if a.cfg.CodeExecutor.Stateful() {
		if st.ExecutionID() == "" {
			st.SetExecutionID(ictx.SessionID())
		}
		call.ExecutionID = st.ExecutionID()
	}
	call.InvocationID, call.AgentName = ictx.InvocationID, a.cfg.Name
	return runner.RunCode(ictx.Context(), call)
}

// ErrNoCodeRunner fails an invocation of an agent whose ClientCodeExecutor
// has no client to run its code.
func ErrNoCodeRunner(agent string) error {
	return &runtime.Error{Code: runtime.CodeFailedPrecondition, Reason: v1.ErrorReason_CODE_EXECUTOR_NOT_DECLARED.String(),
		Message: fmt.Sprintf("agent %s runs its code with a ClientCodeExecutor: run the app over Connect with start.code_executor set", agent)}
}

// codeResultEvent is ADK's _post_process_code_execution_result: the result
// part, the executor's context as state_delta, the failure counted (or the
// count reset), and the output files saved as artifacts.
func (a *Agent) codeResultEvent(ictx *runtime.InvocationContext, st *codeexec.State, res *codeexec.Result) (*v1.Event, error) {
	ev := ictx.NewEvent()
	ev.Content = &v1.Content{Role: "model", Parts: []*v1.Part{codeexec.ResultPart(res)}}
	ev.Actions.StateDelta = st.Delta()
	if res.Stderr != "" {
		st.IncrementErrorCount(ictx.InvocationID)
	} else {
		st.ResetErrorCount(ictx.InvocationID)
	}
	for _, f := range res.OutputFiles {
		if _, err := ictx.SaveArtifact(ev.Actions, f.Name, &v1.Part{InlineData: &v1.Blob{MimeType: f.MimeType, Data: f.Content}}); err != nil {
			return nil, err
		}
	}
	return ev, nil
}

// saveGeneratedImages saves the images of a built-in executor's answer as
// artifacts, each part's image replaced by a text naming it, and returns
// the event of their versions (ADK yields it even without images).
func saveGeneratedImages(ictx *runtime.InvocationContext, resp *v1.LlmResponse) (*v1.Event, error) {
	ev := ictx.NewEvent()
	cloned := false
	for i, p := range resp.Content.Parts {
		img := p.GetInlineData()
		if img == nil || !strings.HasPrefix(img.GetMimeType(), "image/") {
			continue
		}
		if !cloned {
			resp.Content = proto.CloneOf(resp.Content)
			p, cloned = resp.Content.Parts[i], true
		}
		name := img.GetDisplayName()
		if name == "" {
			ext := img.GetMimeType()[strings.LastIndexByte(img.GetMimeType(), '/')+1:]
			name = time.Now().Format("20060102_150405") + "." + ext
		}
		if _, err := ictx.SaveArtifact(ev.Actions, name, &v1.Part{InlineData: &v1.Blob{MimeType: img.GetMimeType(), Data: img.GetData()}}); err != nil {
			return nil, err
		}
		p.InlineData = nil
		p.Text = "Saved as artifact: " + name + ". "
	}
	return ev, nil
}

// splitThoughts is ADK 2.x's _split_thoughts: the model's thoughts are no
// code to run, but go back before the code, with their signatures.
func splitThoughts(c *v1.Content) (*v1.Content, []*v1.Part) {
	var kept, thoughts []*v1.Part
	for _, p := range c.Parts {
		if p.Thought {
			thoughts = append(thoughts, p)
		} else {
			kept = append(kept, p)
		}
	}
	c.Parts = kept
	return c, thoughts
}
