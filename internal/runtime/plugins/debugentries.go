package plugins

import (
	"errors"
	"slices"
	"strconv"
	"unicode/utf8"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/pyfmt"
)

// The data of DebugLoggingPlugin's entries, as ADK's plugin builds them:
// Python objects (see pyfmt.AppendYAML), with keys in ADK's order. An
// empty string or a zero count ADK would hold as None is None here.

// orNone is s, or None when it is empty.
func orNone(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// countOrNone is n, or None when it is zero.
func countOrNone(n int32) any {
	if n == 0 {
		return nil
	}
	return int64(n)
}

// contentData is ADK's _serialize_content: the role and, per part that has
// any, its text, call, response, inline data (its bytes left out), file
// data and code.
func contentData(c *v1.Content) any {
	if c == nil {
		return nil
	}
	parts := []any{}
	for _, p := range c.GetParts() {
		d := pyfmt.Dict{}
		if p.GetText() != "" {
			d = append(d, pyfmt.Item{Key: "text", Value: p.GetText()})
		}
		if fc := p.GetFunctionCall(); fc != nil {
			d = append(d, pyfmt.Item{Key: "function_call", Value: pyfmt.Dict{
				{Key: "id", Value: orNone(fc.GetId())}, {Key: "name", Value: orNone(fc.GetName())}, {Key: "args", Value: structOrNone(fc.GetArgs())}}})
		}
		if fr := p.GetFunctionResponse(); fr != nil {
			d = append(d, pyfmt.Item{Key: "function_response", Value: pyfmt.Dict{
				{Key: "id", Value: orNone(fr.GetId())}, {Key: "name", Value: orNone(fr.GetName())}, {Key: "response", Value: structOrNone(fr.GetResponse())}}})
		}
		if b := p.GetInlineData(); b != nil {
			d = append(d, pyfmt.Item{Key: "inline_data", Value: pyfmt.Dict{
				{Key: "mime_type", Value: orNone(b.GetMimeType())}, {Key: "display_name", Value: orNone(b.GetDisplayName())},
				{Key: "_data_omitted", Value: true}}})
		}
		if f := p.GetFileData(); f != nil {
			d = append(d, pyfmt.Item{Key: "file_data", Value: pyfmt.Dict{
				{Key: "file_uri", Value: orNone(f.GetFileUri())}, {Key: "mime_type", Value: orNone(f.GetMimeType())}}})
		}
		if r := p.GetCodeExecutionResult(); r != nil {
			d = append(d, pyfmt.Item{Key: "code_execution_result", Value: pyfmt.Dict{
				{Key: "outcome", Value: enumStr("Outcome", r.GetOutcome())}, {Key: "output", Value: orNone(r.GetOutput())}}})
		}
		if x := p.GetExecutableCode(); x != nil {
			d = append(d, pyfmt.Item{Key: "executable_code", Value: pyfmt.Dict{
				{Key: "language", Value: enumStr("Language", x.GetLanguage())}, {Key: "code", Value: orNone(x.GetCode())}}})
		}
		if len(d) > 0 {
			parts = append(parts, d)
		}
	}
	return pyfmt.Dict{{Key: "role", Value: orNone(c.GetRole())}, {Key: "parts", Value: parts}}
}

func structOrNone(s *structpb.Struct) any {
	if s == nil {
		return nil
	}
	return s
}

// enumStr is str() of a google-genai enum member: "Outcome.OUTCOME_OK";
// "None" when unset.
func enumStr(enum, member string) string {
	if member == "" {
		return "None"
	}
	return enum + "." + member
}

// requestData is the data of an llm_request entry.
func requestData(req *v1.LlmRequest, includeSystemInstruction bool) pyfmt.Dict {
	contents := make([]any, len(req.GetContents()))
	for i, c := range req.GetContents() {
		contents[i] = contentData(c)
	}
	d := pyfmt.Dict{{Key: "model", Value: orNone(req.GetModel())}, {Key: "content_count", Value: int64(len(contents))},
		{Key: "contents", Value: contents}}
	var tools []string
	for _, t := range req.GetConfig().GetTools() {
		for _, fd := range t.GetFunctionDeclarations() {
			if !slices.Contains(tools, fd.GetName()) {
				tools = append(tools, fd.GetName())
			}
		}
	}
	if len(tools) > 0 {
		d = append(d, pyfmt.Item{Key: "tools", Value: tools})
	}
	cfg := req.GetConfig()
	c := pyfmt.Dict{}
	switch si := cfg.GetSystemInstruction(); {
	case si == "":
	case includeSystemInstruction:
		c = append(c, pyfmt.Item{Key: "system_instruction", Value: si})
	default:
		c = append(c, pyfmt.Item{Key: "system_instruction_length", Value: int64(utf8.RuneCountInString(si))})
	}
	for _, f := range []struct {
		key string
		v   *float32
	}{{"temperature", cfg.Temperature}, {"top_p", cfg.TopP}, {"top_k", cfg.TopK}} {
		if f.v != nil {
			c = append(c, pyfmt.Item{Key: f.key, Value: float32Value(*f.v)})
		}
	}
	if cfg.MaxOutputTokens != nil {
		c = append(c, pyfmt.Item{Key: "max_output_tokens", Value: int64(*cfg.MaxOutputTokens)})
	}
	if cfg.GetResponseMimeType() != "" {
		c = append(c, pyfmt.Item{Key: "response_mime_type", Value: cfg.GetResponseMimeType()})
	}
	if cfg.GetResponseSchema() != nil {
		c = append(c, pyfmt.Item{Key: "has_response_schema", Value: true})
	}
	if len(c) > 0 {
		d = append(d, pyfmt.Item{Key: "config", Value: c})
	}
	return d
}

// float32Value is the Python float a config field holds: the shortest
// decimal that reads back as the same float32 (0.7, not 0.699999988).
func float32Value(f float32) pyfmt.Float {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(float64(f), 'g', -1, 32), 64)
	return pyfmt.Float(v)
}

// partialOrNone is an optional flag: None when unset.
func partialOrNone(p *bool) any {
	if p == nil {
		return nil
	}
	return *p
}

// trueOrNone is a flag ADK leaves None unless it is set.
func trueOrNone(b bool) any {
	if !b {
		return nil
	}
	return true
}

// responseData is the data of an llm_response entry.
func responseData(resp *v1.LlmResponse) pyfmt.Dict {
	d := pyfmt.Dict{{Key: "content", Value: contentData(resp.GetContent())}, {Key: "partial", Value: partialOrNone(resp.Partial)},
		{Key: "turn_complete", Value: trueOrNone(resp.GetTurnComplete())}}
	if resp.GetErrorCode() != "" {
		d = append(d, pyfmt.Item{Key: "error_code", Value: resp.GetErrorCode()}, pyfmt.Item{Key: "error_message", Value: orNone(resp.GetErrorMessage())})
	}
	if u := resp.GetUsageMetadata(); u != nil {
		d = append(d, pyfmt.Item{Key: "usage_metadata", Value: append(usageData(u),
			pyfmt.Item{Key: "cached_content_token_count", Value: countOrNone(u.GetCachedContentTokenCount())})})
	}
	if resp.GetGroundingMetadata() != nil {
		d = append(d, pyfmt.Item{Key: "has_grounding_metadata", Value: true})
	}
	if resp.GetFinishReason() != "" {
		d = append(d, pyfmt.Item{Key: "finish_reason", Value: enumStr("FinishReason", resp.GetFinishReason())})
	}
	if resp.GetModelVersion() != "" {
		d = append(d, pyfmt.Item{Key: "model_version", Value: resp.GetModelVersion()})
	}
	return d
}

func usageData(u *v1.UsageMetadata) pyfmt.Dict {
	return pyfmt.Dict{{Key: "prompt_token_count", Value: countOrNone(u.GetPromptTokenCount())},
		{Key: "candidates_token_count", Value: countOrNone(u.GetCandidatesTokenCount())},
		{Key: "total_token_count", Value: countOrNone(u.GetTotalTokenCount())}}
}

// eventData is the data of an event entry.
func eventData(ev *v1.Event) pyfmt.Dict {
	d := pyfmt.Dict{{Key: "event_id", Value: orNone(ev.GetId())}, {Key: "author", Value: orNone(ev.GetAuthor())},
		{Key: "content", Value: contentData(ev.GetContent())}, {Key: "is_final_response", Value: runtime.IsFinalResponse(ev)},
		{Key: "partial", Value: partialOrNone(ev.Partial)}, {Key: "turn_complete", Value: trueOrNone(ev.GetTurnComplete())},
		{Key: "branch", Value: orNone(ev.GetBranch())}}
	a := ev.GetActions()
	actions := pyfmt.Dict{}
	if len(a.GetStateDelta().GetFields()) > 0 {
		actions = append(actions, pyfmt.Item{Key: "state_delta", Value: a.GetStateDelta()})
	}
	if len(a.GetArtifactDelta()) > 0 {
		names := make([]string, 0, len(a.GetArtifactDelta()))
		for name := range a.GetArtifactDelta() {
			names = append(names, name)
		}
		slices.Sort(names)
		versions := make(pyfmt.Dict, len(names))
		for i, name := range names {
			versions[i] = pyfmt.Item{Key: name, Value: a.GetArtifactDelta()[name]}
		}
		actions = append(actions, pyfmt.Item{Key: "artifact_delta", Value: versions})
	}
	if a.GetTransferToAgent() != "" {
		actions = append(actions, pyfmt.Item{Key: "transfer_to_agent", Value: a.GetTransferToAgent()})
	}
	if a.GetEscalate() {
		actions = append(actions, pyfmt.Item{Key: "escalate", Value: true})
	}
	if n := len(a.GetRequestedAuthConfigs()); n > 0 {
		actions = append(actions, pyfmt.Item{Key: "requested_auth_configs", Value: int64(n)})
	}
	if len(actions) > 0 {
		d = append(d, pyfmt.Item{Key: "actions", Value: actions})
	}
	if ev.GetGroundingMetadata() != nil {
		d = append(d, pyfmt.Item{Key: "has_grounding_metadata", Value: true})
	}
	if u := ev.GetUsageMetadata(); u != nil {
		d = append(d, pyfmt.Item{Key: "usage_metadata", Value: usageData(u)})
	}
	if ev.GetErrorCode() != "" {
		d = append(d, pyfmt.Item{Key: "error_code", Value: ev.GetErrorCode()}, pyfmt.Item{Key: "error_message", Value: orNone(ev.GetErrorMessage())})
	}
	if len(ev.GetLongRunningToolIds()) > 0 {
		d = append(d, pyfmt.Item{Key: "long_running_tool_ids", Value: ev.GetLongRunningToolIds()})
	}
	return d
}

// toolResult is what ADK's after-tool callback receives: what the tool
// returned, or the response that stood in for the tool's run.
func toolResult(tctx *runtime.ToolContext, result *structpb.Struct) any {
	if tctx.Output != nil {
		if v, err := runtime.OutputValue(tctx.Output); err == nil {
			return v
		}
	}
	return structOrNone(result)
}

// modelErrorType is the class name of the exception ADK's model call
// raises for err: google-genai's ClientError or ServerError for an API
// answer, otherwise Exception.
func modelErrorType(err error) string {
	var merr *models.Error
	switch {
	case errors.As(err, &merr) && merr.HTTPStatus >= 500:
		return "ServerError"
	case errors.As(err, &merr) && merr.HTTPStatus >= 400:
		return "ClientError"
	}
	return "Exception"
}
