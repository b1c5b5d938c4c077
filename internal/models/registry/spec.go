// Package registry resolves an agent's model declaration to a model
// adapter, as ADK's LLMRegistry and Agent Config's model_code do: a plain
// model name by its pattern (gemini-* to Gemini, claude-3-* to Claude,
// "<provider>/<model>" to LiteLlm), a model_code entry by its class
// (google.adk.models.lite_llm.LiteLlm or
// google.adk.models.anthropic_llm.Claude) and arguments.
//
// It holds no credentials: the adapters read them from the environment
// when they are built.
package registry

import (
	"regexp"
	"strings"
)

// Kind is the adapter family that serves a model.
type Kind string

const (
	// KindGemini is the Gemini API or Vertex AI (package models/gemini).
	KindGemini Kind = "gemini"
	// KindOpenAI is OpenAI's Chat Completions API and the servers that
	// speak it (package models/openai).
	KindOpenAI Kind = "openai"
	// KindAnthropic is Anthropic's Messages API.
	KindAnthropic Kind = "anthropic"
)

// The model_code classes agentsvc serves, by their ADK names.
const (
	ClassLiteLlm = "google.adk.models.lite_llm.LiteLlm"
	ClassClaude  = "google.adk.models.anthropic_llm.Claude"
)

// Spec is one model as an agent declares it.
type Spec struct {
	// Kind is the adapter family.
	Kind Kind
	// Class is the model_code class, empty for a plain model name.
	Class string
	// Name is the model as ADK's BaseLlm.model holds it: "openai/gpt-4o"
	// for LiteLlm, "claude-3-5-sonnet-v2@20241022" for Claude,
	// "gemini-2.5-flash" for Gemini.
	Name string
	// Provider is LiteLLM's provider prefix of Name ("openai", "azure",
	// "anthropic", ...); empty for Gemini and Claude.
	Provider string
	// Model is the model as the provider's API names it: Name without
	// the provider prefix.
	Model string
	// Args are the validated arguments of a model_code entry other than
	// model (see [Args]).
	Args Args
	// Source names where the model was declared, e.g.
	// "app/root_agent.yaml: model_code", for start-up errors.
	Source string
}

// The model name patterns of ADK's LLMRegistry (google-adk 1.39.1): the
// Gemini class's, Claude's and LiteLlm's supported_models.
var (
	geminiPattern  = regexp.MustCompile(`^(gemini-.*|model-optimizer-.*|projects/.+/locations/.+/endpoints/.+|projects/.+/locations/.+/publishers/google/models/gemini.+)$`)
	claudePattern  = regexp.MustCompile(`^(claude-3-.*|claude-.*-4.*)$`)
	liteLlmPattern = regexp.MustCompile(`^(openai|azure|azure_ai|groq|anthropic|bedrock|ollama|ollama_chat|together_ai|vertex_ai|mistral|deepseek|fireworks_ai|cohere|databricks|ai21)/.+$`)
)

// openAIProviders are LiteLLM's providers that agentsvc serves with the
// OpenAI Chat Completions adapter.
var openAIProviders = map[string]bool{
	"openai": true, "azure": true, "hosted_vllm": true, "ollama_chat": true, "groq": true,
	"mistral": true, "deepseek": true, "openrouter": true, "together_ai": true,
}

// unsupportedError is a model declaration agentsvc cannot serve.
type unsupportedError struct{ msg string }

func (e *unsupportedError) Error() string { return e.msg }

// FromName resolves a plain model name (an agent's model field) as ADK's
// LLMRegistry does. A Gemini name, and a name no pattern knows (which
// agentsvc has always sent to Gemini), give KindGemini; claude-3-* and
// claude-*-4* give Claude; a LiteLlm "<provider>/<model>" name gives that
// provider when agentsvc serves it, else an error.
func FromName(name string) (Spec, error) {
	switch {
	case geminiPattern.MatchString(name):
		return Spec{Kind: KindGemini, Name: name, Model: name}, nil
	case claudePattern.MatchString(name):
		return Spec{Kind: KindAnthropic, Class: ClassClaude, Name: name, Model: name}, nil
	case liteLlmPattern.MatchString(name):
		return liteLlmSpec(name)
	}
	return Spec{Kind: KindGemini, Name: name, Model: name}, nil
}

// liteLlmSpec resolves a LiteLLM model name "<provider>/<model>".
func liteLlmSpec(name string) (Spec, error) {
	provider, model, ok := strings.Cut(name, "/")
	if !ok || provider == "" || model == "" {
		return Spec{}, &unsupportedError{msg: "model " + quote(name) + ": want \"<provider>/<model>\", e.g. \"openai/gpt-4o\""}
	}
	s := Spec{Class: ClassLiteLlm, Name: name, Provider: provider, Model: model}
	switch {
	case provider == "anthropic":
		s.Kind = KindAnthropic
	case openAIProviders[provider]:
		s.Kind = KindOpenAI
	default:
		return Spec{}, &unsupportedError{msg: "model " + quote(name) + ": provider " + quote(provider) +
			" is not supported; agentsvc serves " + supportedProviders()}
	}
	return s, nil
}

// supportedProviders lists the LiteLLM providers agentsvc serves.
func supportedProviders() string {
	return "anthropic, azure, deepseek, groq, hosted_vllm, mistral, ollama_chat, openai, openrouter and together_ai"
}

func quote(s string) string { return `"` + s + `"` }
