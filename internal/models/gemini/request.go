package gemini

import (
	"encoding/json"
	"fmt"

	"google.golang.org/genai"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models"
)

// The texts ADK's BaseLlm appends when the conversation does not end with a
// user turn (see models.ContinueTurnText).
const (
	emptyContentsText = models.EmptyContentsText
	continueTurnText  = models.ContinueTurnText
	roleUser          = "user"
	roleModel         = "model"
)

// requestConverter turns an [v1.LlmRequest] into the arguments of a genai
// call. The Gemini API accepts neither labels, display names of blobs and
// files, nor a safety-setting method, so they are dropped for it, as ADK does.
type requestConverter struct {
	vertex bool
}

// contents converts the conversation. It allocates the contents and parts in
// two blocks and never modifies req. When the conversation is empty or does
// not end with a user turn, a user turn is appended as ADK's BaseLlm does.
func (rc requestConverter) contents(req *v1.LlmRequest) []*genai.Content {
	src := req.GetContents()
	nParts := 0
	for _, c := range src {
		nParts += len(c.GetParts())
	}
	// One spare content and part for the appended user turn.
	contents := make([]genai.Content, 0, len(src)+1)
	parts := make([]genai.Part, 0, nParts+1)
	partPtrs := make([]*genai.Part, 0, nParts+1)
	for _, c := range src {
		if c == nil {
			continue
		}
		first := len(partPtrs)
		for _, p := range c.GetParts() {
			if p == nil {
				continue
			}
			parts = append(parts, genai.Part{})
			gp := &parts[len(parts)-1]
			rc.part(gp, p)
			partPtrs = append(partPtrs, gp)
		}
		contents = append(contents, genai.Content{Role: c.GetRole(), Parts: partPtrs[first:len(partPtrs):len(partPtrs)]})
	}
	switch {
	case len(contents) == 0:
		contents = append(contents, userText(&parts, &partPtrs, emptyContentsText))
	case contents[len(contents)-1].Role != roleUser:
		contents = append(contents, userText(&parts, &partPtrs, continueTurnText))
	}
	out := make([]*genai.Content, len(contents))
	for i := range contents {
		out[i] = &contents[i]
	}
	return out
}

// userText appends a one-part user content using the spare capacity.
func userText(parts *[]genai.Part, ptrs *[]*genai.Part, text string) genai.Content {
	*parts = append(*parts, genai.Part{Text: text})
	*ptrs = append(*ptrs, &(*parts)[len(*parts)-1])
	n := len(*ptrs)
	return genai.Content{Role: roleUser, Parts: (*ptrs)[n-1 : n : n]}
}

// part fills dst from p.
func (rc requestConverter) part(dst *genai.Part, p *v1.Part) {
	dst.Text = p.GetText()
	dst.Thought = p.GetThought()
	dst.ThoughtSignature = p.GetThoughtSignature()
	if b := p.GetInlineData(); b != nil {
		dst.InlineData = &genai.Blob{MIMEType: b.GetMimeType(), Data: b.GetData()}
		if rc.vertex {
			dst.InlineData.DisplayName = b.GetDisplayName()
		}
	}
	if f := p.GetFileData(); f != nil {
		dst.FileData = &genai.FileData{MIMEType: f.GetMimeType(), FileURI: f.GetFileUri()}
		if rc.vertex {
			dst.FileData.DisplayName = f.GetDisplayName()
		}
	}
	if fc := p.GetFunctionCall(); fc != nil {
		dst.FunctionCall = &genai.FunctionCall{ID: models.ModelID(fc.GetId()), Name: fc.GetName(), Args: structMap(fc.GetArgs())}
	}
	if fr := p.GetFunctionResponse(); fr != nil {
		dst.FunctionResponse = &genai.FunctionResponse{ID: models.ModelID(fr.GetId()), Name: fr.GetName(), Response: structMap(fr.GetResponse())}
	}
	if ec := p.GetExecutableCode(); ec != nil {
		dst.ExecutableCode = &genai.ExecutableCode{Language: genai.Language(ec.GetLanguage()), Code: ec.GetCode()}
	}
	if cr := p.GetCodeExecutionResult(); cr != nil {
		dst.CodeExecutionResult = &genai.CodeExecutionResult{Outcome: genai.Outcome(cr.GetOutcome()), Output: cr.GetOutput()}
	}
	// google-genai sends a part's metadata to the Gemini API and refuses
	// it for Vertex AI, where ADK leaves it out.
	if !rc.vertex {
		dst.PartMetadata = structMap(p.GetPartMetadata())
	}
}

// structMap returns s as a map, nil for nil.
func structMap(s *structpb.Struct) map[string]any {
	if s == nil {
		return nil
	}
	return s.AsMap()
}

// config converts the generation config. It returns an error only for a
// server-side tool whose JSON does not fit the genai type.
func (rc requestConverter) config(c *v1.GenerateContentConfig) (*genai.GenerateContentConfig, error) {
	// Continuation would resend the request behind the engine's back and
	// reconnect dropped streams; ADK does neither.
	noContinuation := false
	out := &genai.GenerateContentConfig{AutomaticContinuation: &noContinuation}
	if c == nil {
		return out, nil
	}
	if si := c.GetSystemInstruction(); si != "" {
		out.SystemInstruction = &genai.Content{Role: roleUser, Parts: []*genai.Part{{Text: si}}}
	}
	tools, err := rc.tools(c.GetTools())
	if err != nil {
		return nil, err
	}
	out.Tools = tools
	if fcc := c.GetToolConfig().GetFunctionCallingConfig(); fcc != nil {
		out.ToolConfig = &genai.ToolConfig{FunctionCallingConfig: &genai.FunctionCallingConfig{
			Mode:                 genai.FunctionCallingConfigMode(fcc.GetMode()),
			AllowedFunctionNames: fcc.GetAllowedFunctionNames(),
		}}
	}
	schema := convertSchema(c.GetResponseSchema())
	out.ResponseSchema = schema.typed
	if schema.raw != nil {
		out.ResponseJsonSchema = schema.raw
	}
	out.ResponseMIMEType = c.GetResponseMimeType()
	out.Temperature = c.Temperature
	out.TopP = c.TopP
	out.TopK = c.TopK
	out.CandidateCount = c.GetCandidateCount()
	out.MaxOutputTokens = c.GetMaxOutputTokens()
	out.StopSequences = c.GetStopSequences()
	out.PresencePenalty = c.PresencePenalty
	out.FrequencyPenalty = c.FrequencyPenalty
	out.Seed = c.Seed
	out.ResponseLogprobs = c.GetResponseLogprobs()
	out.Logprobs = c.Logprobs
	if ss := c.GetSafetySettings(); len(ss) > 0 {
		out.SafetySettings = make([]*genai.SafetySetting, 0, len(ss))
		for _, s := range ss {
			if s == nil {
				continue
			}
			gs := &genai.SafetySetting{Category: genai.HarmCategory(s.GetCategory()), Threshold: genai.HarmBlockThreshold(s.GetThreshold())}
			if rc.vertex {
				gs.Method = genai.HarmBlockMethod(s.GetMethod())
			}
			out.SafetySettings = append(out.SafetySettings, gs)
		}
	}
	if tc := c.GetThinkingConfig(); tc != nil {
		out.ThinkingConfig = &genai.ThinkingConfig{
			IncludeThoughts: tc.GetIncludeThoughts(),
			ThinkingBudget:  tc.ThinkingBudget,
			ThinkingLevel:   genai.ThinkingLevel(tc.GetThinkingLevel()),
		}
	}
	if rc.vertex && len(c.GetLabels()) > 0 {
		out.Labels = c.GetLabels()
	}
	out.CachedContent = c.GetCachedContent()
	out.ResponseModalities = c.GetResponseModalities()
	return out, nil
}

// tools converts the tool list, one genai.Tool per tool.
func (rc requestConverter) tools(tools []*v1.Tool) ([]*genai.Tool, error) {
	if len(tools) == 0 {
		return nil, nil
	}
	nDecls := 0
	for _, t := range tools {
		nDecls += len(t.GetFunctionDeclarations())
	}
	out := make([]*genai.Tool, 0, len(tools))
	blocks := make([]genai.Tool, len(tools))
	decls := make([]genai.FunctionDeclaration, 0, nDecls)
	declPtrs := make([]*genai.FunctionDeclaration, 0, nDecls)
	for i, t := range tools {
		if t == nil {
			continue
		}
		gt := &blocks[i]
		first := len(declPtrs)
		for _, d := range t.GetFunctionDeclarations() {
			if d == nil {
				continue
			}
			decls = append(decls, functionDeclaration(d))
			declPtrs = append(declPtrs, &decls[len(decls)-1])
		}
		if len(declPtrs) > first {
			gt.FunctionDeclarations = declPtrs[first:len(declPtrs):len(declPtrs)]
		}
		if s := t.GetGoogleSearch(); s != nil {
			gt.GoogleSearch = &genai.GoogleSearch{}
			if err := fromStruct(s, gt.GoogleSearch); err != nil {
				return nil, fmt.Errorf("google_search tool: %w", err)
			}
		}
		if s := t.GetCodeExecution(); s != nil {
			gt.CodeExecution = &genai.ToolCodeExecution{}
			if err := fromStruct(s, gt.CodeExecution); err != nil {
				return nil, fmt.Errorf("code_execution tool: %w", err)
			}
		}
		if s := t.GetUrlContext(); s != nil {
			gt.URLContext = &genai.URLContext{}
			if err := fromStruct(s, gt.URLContext); err != nil {
				return nil, fmt.Errorf("url_context tool: %w", err)
			}
		}
		if s := t.GetEnterpriseWebSearch(); s != nil {
			gt.EnterpriseWebSearch = &genai.EnterpriseWebSearch{}
			if err := fromStruct(s, gt.EnterpriseWebSearch); err != nil {
				return nil, fmt.Errorf("enterprise_web_search tool: %w", err)
			}
		}
		if s := t.GetGoogleSearchRetrieval(); s != nil {
			gt.GoogleSearchRetrieval = &genai.GoogleSearchRetrieval{}
			if err := fromStruct(s, gt.GoogleSearchRetrieval); err != nil {
				return nil, fmt.Errorf("google_search_retrieval tool: %w", err)
			}
		}
		if s := t.GetGoogleMaps(); s != nil {
			gt.GoogleMaps = &genai.GoogleMaps{}
			if err := fromStruct(s, gt.GoogleMaps); err != nil {
				return nil, fmt.Errorf("google_maps tool: %w", err)
			}
		}
		out = append(out, gt)
	}
	return out, nil
}

// functionDeclaration converts one declaration, keeping its schemas typed
// when genai.Schema can express them.
func functionDeclaration(d *v1.FunctionDeclaration) genai.FunctionDeclaration {
	out := genai.FunctionDeclaration{Name: d.GetName(), Description: d.GetDescription()}
	if js := d.GetParametersJsonSchema(); js != nil {
		out.ParametersJsonSchema = js.AsInterface()
	} else {
		params := convertSchema(d.GetParameters())
		out.Parameters = params.typed
		if params.raw != nil {
			out.ParametersJsonSchema = params.raw
		}
	}
	resp := convertSchema(d.GetResponse())
	out.Response = resp.typed
	if resp.raw != nil {
		out.ResponseJsonSchema = resp.raw
	}
	return out
}

// fromStruct decodes the JSON object s into dst; an empty object is a no-op.
func fromStruct(s *structpb.Struct, dst any) error {
	if len(s.GetFields()) == 0 {
		return nil
	}
	b, err := protojson.Marshal(s)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, dst)
}
