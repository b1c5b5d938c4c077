package tools

import (
	"fmt"
	"os"
	"regexp"
	"strings"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/features"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// geminiTool is one of Gemini's own tools (ADK's GoogleSearchTool,
// UrlContextTool, EnterpriseWebSearchTool, GoogleMapsGroundingTool): the
// model runs it, so it is never declared; it adds its Tool to the request,
// with ADK's rules for the model's version.
type geminiTool struct {
	name, toolType, description string
	// add puts the tool into the request or returns ADK's error for the
	// model.
	add func(model string, cfg *v1.GenerateContentConfig) error
}

// Gemini's own tools, by the names an Agent Config gives them.
var (
	GoogleSearch = &geminiTool{name: "google_search", toolType: "GoogleSearchTool",
		description: "google_search", add: addGoogleSearch}
	URLContext = &geminiTool{name: "url_context", toolType: "UrlContextTool",
		description: "url_context", add: addURLContext}
	EnterpriseWebSearch = &geminiTool{name: "enterprise_web_search", toolType: "EnterpriseWebSearchTool",
		description: "enterprise_web_search", add: addEnterpriseWebSearch}
	GoogleMapsGrounding = &geminiTool{name: "google_maps_grounding", toolType: "GoogleMapsGroundingTool",
		description: "google_maps_grounding", add: addGoogleMaps}
)

func (t *geminiTool) Name() string                         { return t.name }
func (t *geminiTool) Description() string                  { return t.description }
func (t *geminiTool) Declaration() *v1.FunctionDeclaration { return nil }
func (t *geminiTool) IsLongRunning() bool                  { return false }

// ToolType implements [runtime.ToolTyper].
func (t *geminiTool) ToolType() string { return t.toolType }

// Run implements [runtime.Tool]: the model runs these tools itself, so a
// function call naming one is answered with an error for the model.
func (t *geminiTool) Run(*runtime.ToolContext, *structpb.Struct) (any, error) {
	return errorResult(fmt.Sprintf("%s is run by the model itself; it cannot be called as a function.", t.name)), nil
}

// ProcessRequest implements [runtime.RequestProcessor].
func (t *geminiTool) ProcessRequest(_ *runtime.InvocationContext, req *v1.LlmRequest) error {
	if req.Config == nil {
		req.Config = &v1.GenerateContentConfig{}
	}
	if err := t.add(req.GetModel(), req.Config); err != nil {
		return &runtime.Error{Code: runtime.CodeFailedPrecondition, Reason: v1.ErrorReason_TOOL_NOT_SUPPORTED.String(), Message: err.Error()}
	}
	return nil
}

func addGoogleSearch(model string, cfg *v1.GenerateContentConfig) error {
	switch {
	case isGemini1(model):
		if len(cfg.Tools) > 0 {
			return fmt.Errorf("Google search tool cannot be used with other tools in Gemini 1.x.") //nolint:staticcheck // ST1005: ADK's message, word for word.
		}
		cfg.Tools = append(cfg.Tools, &v1.Tool{GoogleSearchRetrieval: &structpb.Struct{}})
	case isGemini(model) || modelCheckDisabled():
		cfg.Tools = append(cfg.Tools, &v1.Tool{GoogleSearch: &structpb.Struct{}})
	default:
		return fmt.Errorf("Google search tool is not supported for model %s", model) //nolint:staticcheck // ST1005: ADK's message, word for word.
	}
	return nil
}

func addURLContext(model string, cfg *v1.GenerateContentConfig) error {
	switch {
	case isGemini1(model):
		return fmt.Errorf("Url context tool cannot be used in Gemini 1.x.") //nolint:staticcheck // ST1005: ADK's message, word for word.
	case isGemini2OrAbove(model) || modelCheckDisabled():
		cfg.Tools = append(cfg.Tools, &v1.Tool{UrlContext: &structpb.Struct{}})
	default:
		return fmt.Errorf("Url context tool is not supported for model %s", model) //nolint:staticcheck // ST1005: ADK's message, word for word.
	}
	return nil
}

func addEnterpriseWebSearch(model string, cfg *v1.GenerateContentConfig) error {
	if !isGemini(model) && !modelCheckDisabled() {
		return fmt.Errorf("Enterprise Web Search tool is not supported for model %s", model) //nolint:staticcheck // ST1005: ADK's message, word for word.
	}
	if isGemini1(model) && len(cfg.Tools) > 0 {
		return fmt.Errorf("Enterprise Web Search tool cannot be used with other tools in Gemini 1.x.") //nolint:staticcheck // ST1005: ADK's message, word for word.
	}
	cfg.Tools = append(cfg.Tools, &v1.Tool{EnterpriseWebSearch: &structpb.Struct{}})
	return nil
}

func addGoogleMaps(model string, cfg *v1.GenerateContentConfig) error {
	switch {
	case isGemini1(model):
		return fmt.Errorf("Google Maps grounding tool cannot be used with Gemini 1.x models.") //nolint:staticcheck // ST1005: ADK's message, word for word.
	case isGemini(model) || modelCheckDisabled():
		cfg.Tools = append(cfg.Tools, &v1.Tool{GoogleMaps: &structpb.Struct{}})
	default:
		return fmt.Errorf("Google maps tool is not supported for model %s", model) //nolint:staticcheck // ST1005: ADK's message, word for word.
	}
	return nil
}

// modelCheckDisabled reports ADK's ADK_DISABLE_GEMINI_MODEL_ID_CHECK ("1"
// or "true", any case): Gemini's tools are then sent for any model id that
// is not a Gemini 1.x one, for deployments whose model names do not start
// with "gemini-".
func modelCheckDisabled() bool {
	return features.EnvEnabled(os.Getenv("ADK_DISABLE_GEMINI_MODEL_ID_CHECK"))
}

// modelPaths match the resource names whose last part is the model id, as
// ADK's extract_model_name reads them.
var modelPaths = []*regexp.Regexp{
	regexp.MustCompile(`^projects/[^/]+/locations/[^/]+/publishers/[^/]+/models/(.+)$`),
	regexp.MustCompile(`^apigee/(?:[^/]+/)?(?:[^/]+/)?(.+)$`),
}

// modelID is the model's id without a resource path.
func modelID(model string) string {
	for _, p := range modelPaths {
		if m := p.FindStringSubmatch(model); m != nil {
			return m[1]
		}
	}
	return strings.TrimPrefix(model, "models/")
}

var (
	gemini1   = regexp.MustCompile(`^gemini-1\.\d+`)
	geminiEAP = regexp.MustCompile(`^gemini-[a-z0-9_]+(?:-[a-z0-9_]+)*-early-exp\d*$`)
	// version is a version as Python's packaging reads one (the forms a
	// model id uses): its major number is the first group.
	version = regexp.MustCompile(`^v?(\d+)(?:\.\d+)*(?:(?:a|b|c|rc|alpha|beta|pre|preview)\d*)?(?:\.?(?:post|dev)\d*)?$`)
)

func isGemini(model string) bool  { return strings.HasPrefix(modelID(model), "gemini-") }
func isGemini1(model string) bool { return gemini1.MatchString(modelID(model)) }

// isGemini2OrAbove is ADK's is_gemini_eap_or_2_or_above: an early-access
// model, or a Gemini whose version (up to the next dash) has a major
// number of 2 or more.
func isGemini2OrAbove(model string) bool {
	if geminiEAP.MatchString(modelID(model)) {
		return true
	}
	id, ok := strings.CutPrefix(modelID(model), "gemini-")
	if !ok {
		return false
	}
	ver, _, _ := strings.Cut(id, "-")
	m := version.FindStringSubmatch(ver)
	if m == nil {
		return false
	}
	major := strings.TrimLeft(m[1], "0")
	return len(major) > 1 || (len(major) == 1 && major[0] >= '2')
}

// SupportsGemini2Tools reports whether Gemini's 2.x tools (code execution,
// URL context) may be sent to model: ADK's is_gemini_eap_or_2_or_above, or
// ADK_DISABLE_GEMINI_MODEL_ID_CHECK.
func SupportsGemini2Tools(model string) bool { return isGemini2OrAbove(model) || modelCheckDisabled() }

// SupportsGeminiTools reports whether Gemini's tools may be sent to model
// as ADK 2.x decides: any Gemini (is_gemini_model), or
// ADK_DISABLE_GEMINI_MODEL_ID_CHECK.
func SupportsGeminiTools(model string) bool { return isGemini(model) || modelCheckDisabled() }
