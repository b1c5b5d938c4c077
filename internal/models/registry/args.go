package registry

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"strings"
	"time"
)

// Arg is one argument of a model_code entry, as ADK's ArgumentConfig: a
// name (empty for a positional argument) and a YAML value.
type Arg struct {
	Name  string
	Value any
}

// Args are the arguments of a model_code entry besides the model.
type Args struct {
	// APIBase replaces the provider's endpoint (LiteLlm's api_base, or
	// base_url).
	APIBase string
	// APIKey is LiteLlm's api_key; empty means the provider's environment
	// variable. Never logged.
	APIKey string
	// APIVersion is Azure OpenAI's api-version (LiteLlm's api_version).
	APIVersion string
	// Headers are added to every request (LiteLlm's extra_headers and
	// headers).
	Headers map[string]string
	// Timeout bounds one call (LiteLlm's timeout, seconds); zero means
	// the service's model timeout alone.
	Timeout time.Duration
	// NumRetries is LiteLlm's num_retries: the retries of a call that
	// failed with 429, 5xx or no answer; nil means the adapter's default.
	NumRetries *int
	// MaxTokens is Claude's max_tokens; nil means ADK's default.
	MaxTokens *int64
	// Body holds the request body fields LiteLlm passes through
	// (temperature, max_tokens, stop, ...), in the provider's JSON names,
	// extra_body's fields included.
	Body map[string]any
}

// Bounds of model_code arguments.
const (
	maxHeaders     = 64
	maxHeaderBytes = 8 << 10
	maxStringArg   = 4 << 10
	maxStopItems   = 4
	maxTokensArg   = 1 << 24
	maxTimeout     = time.Hour
	maxNumRetries  = 10
	maxExtraBody   = 64
	maxExtraDepth  = 8
)

// FromCode resolves a model_code entry: class is its name, args its
// arguments. Errors name the argument ("args[1].value: ...").
func FromCode(class string, args []Arg) (Spec, error) {
	switch class {
	case ClassLiteLlm, "google.adk.models.LiteLlm":
		return liteLlmFromCode(args)
	case ClassClaude, "google.adk.models.Claude":
		return claudeFromCode(args)
	case "":
		return Spec{}, errors.New("name: required")
	}
	return Spec{}, fmt.Errorf("name: %q is not a model class agentsvc serves; use %s or %s", class, ClassLiteLlm, ClassClaude)
}

// modelArg finds the model argument (named, or the first positional one)
// and returns it with the index of the argument.
func modelArg(args []Arg) (string, int, error) {
	for i, a := range args {
		if a.Name == "model" || a.Name == "" && i == 0 {
			s, ok := a.Value.(string)
			if !ok || strings.TrimSpace(s) == "" {
				return "", i, fmt.Errorf("args[%d].value: the model must be a non-empty string", i)
			}
			if len(s) > maxStringArg {
				return "", i, fmt.Errorf("args[%d].value: the model is longer than %d bytes", i, maxStringArg)
			}
			return s, i, nil
		}
	}
	return "", -1, errors.New("args: model is required")
}

func claudeFromCode(args []Arg) (Spec, error) {
	name, at, err := modelArg(args)
	if err != nil {
		return Spec{}, err
	}
	s := Spec{Kind: KindAnthropic, Class: ClassClaude, Name: name, Model: name}
	for i, a := range args {
		if i == at {
			continue
		}
		switch a.Name {
		case "max_tokens":
			n, err := intArg(a.Value, 1, maxTokensArg)
			if err != nil {
				return Spec{}, fmt.Errorf("args[%d].value: max_tokens: %w", i, err)
			}
			s.Args.MaxTokens = &n
		case "":
			return Spec{}, fmt.Errorf("args[%d].name: required after the model", i)
		default:
			return Spec{}, fmt.Errorf("args[%d].name: %q is not an argument of Claude (model, max_tokens)", i, a.Name)
		}
	}
	return s, nil
}

func liteLlmFromCode(args []Arg) (Spec, error) {
	name, at, err := modelArg(args)
	if err != nil {
		return Spec{}, err
	}
	s, err := liteLlmSpec(name)
	if err != nil {
		return Spec{}, fmt.Errorf("args[%d].value: %w", at, err)
	}
	for i, a := range args {
		if i == at {
			continue
		}
		if a.Name == "" {
			return Spec{}, fmt.Errorf("args[%d].name: required after the model", i)
		}
		if err := s.Args.set(a.Name, a.Value); err != nil {
			return Spec{}, fmt.Errorf("args[%d].value: %s: %w", i, a.Name, err)
		}
	}
	return s, nil
}

// set validates one LiteLlm argument and records it.
func (a *Args) set(name string, v any) error {
	switch name {
	case "api_base", "base_url":
		u, err := urlArg(v)
		if err != nil {
			return err
		}
		a.APIBase = u
	case "api_key", "api_version":
		s, err := stringArg(v)
		if err != nil {
			return err
		}
		if name == "api_key" {
			a.APIKey = s
		} else {
			a.APIVersion = s
		}
	case "extra_headers", "headers":
		return a.setHeaders(v)
	case "timeout":
		f, err := floatArg(v, 0, maxTimeout.Seconds())
		if err != nil {
			return err
		}
		a.Timeout = time.Duration(f * float64(time.Second))
	case "num_retries":
		n, err := intArg(v, 0, maxNumRetries)
		if err != nil {
			return err
		}
		r := int(n)
		a.NumRetries = &r
	case "drop_params":
		if _, ok := v.(bool); !ok {
			return errors.New("want true or false")
		}
	case "extra_body":
		return a.setExtraBody(v)
	default:
		return a.setBody(name, v)
	}
	return nil
}

// setBody validates a request body field LiteLlm passes through.
func (a *Args) setBody(name string, v any) error {
	var err error
	switch name {
	case "temperature":
		v, err = floatArg(v, 0, 2)
	case "top_p":
		v, err = floatArg(v, 0, 1)
	case "presence_penalty", "frequency_penalty":
		v, err = floatArg(v, -2, 2)
	case "max_tokens", "max_completion_tokens":
		v, err = intArg(v, 1, maxTokensArg)
	case "seed":
		v, err = intArg(v, math.MinInt32, math.MaxInt32)
	case "top_logprobs":
		v, err = intArg(v, 0, 20)
	case "logprobs", "parallel_tool_calls":
		if _, ok := v.(bool); !ok {
			err = errors.New("want true or false")
		}
	case "user":
		v, err = stringArg(v)
	case "stop":
		v, err = stopArg(v)
	case "tool_choice":
		v, err = oneOf(v, "auto", "none", "required")
	case "reasoning_effort":
		v, err = oneOf(v, "minimal", "low", "medium", "high")
	default:
		return errors.New("not an argument agentsvc passes to the model (api_base, api_key, api_version, extra_headers, " +
			"extra_body, timeout, num_retries, drop_params, temperature, top_p, presence_penalty, frequency_penalty, " +
			"max_tokens, max_completion_tokens, seed, stop, user, logprobs, top_logprobs, parallel_tool_calls, " +
			"tool_choice, reasoning_effort)")
	}
	if err != nil {
		return err
	}
	if a.Body == nil {
		a.Body = map[string]any{}
	}
	a.Body[name] = v
	return nil
}

// reservedBody are the body fields the adapter writes itself.
var reservedBody = map[string]bool{"model": true, "messages": true, "tools": true, "stream": true,
	"stream_options": true, "response_format": true}

func (a *Args) setExtraBody(v any) error {
	m, ok := v.(map[string]any)
	if !ok {
		return errors.New("want a mapping")
	}
	if len(m) > maxExtraBody {
		return fmt.Errorf("more than %d fields", maxExtraBody)
	}
	for k, fv := range m {
		if reservedBody[k] {
			return fmt.Errorf("%s: set by agentsvc, not by extra_body", k)
		}
		if depth(fv) > maxExtraDepth {
			return fmt.Errorf("%s: nested deeper than %d", k, maxExtraDepth)
		}
		if a.Body == nil {
			a.Body = map[string]any{}
		}
		a.Body[k] = fv
	}
	return nil
}

func (a *Args) setHeaders(v any) error {
	m, ok := v.(map[string]any)
	if !ok {
		return errors.New("want a mapping of header names to strings")
	}
	if len(a.Headers)+len(m) > maxHeaders {
		return fmt.Errorf("more than %d headers", maxHeaders)
	}
	for k, hv := range m {
		s, ok := hv.(string)
		if !ok {
			return fmt.Errorf("%s: want a string", k)
		}
		if k == "" || len(k)+len(s) > maxHeaderBytes || strings.ContainsAny(k, "\r\n: ") || strings.ContainsAny(s, "\r\n") {
			return fmt.Errorf("%q: not a valid header", k)
		}
		if a.Headers == nil {
			a.Headers = map[string]string{}
		}
		a.Headers[k] = s
	}
	return nil
}

func depth(v any) int {
	switch t := v.(type) {
	case map[string]any:
		d := 0
		for _, x := range t {
			d = max(d, depth(x))
		}
		return d + 1
	case []any:
		d := 0
		for _, x := range t {
			d = max(d, depth(x))
		}
		return d + 1
	}
	return 0
}

func stringArg(v any) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", errors.New("want a string")
	}
	if len(s) > maxStringArg {
		return "", fmt.Errorf("longer than %d bytes", maxStringArg)
	}
	return s, nil
}

func urlArg(v any) (string, error) {
	s, err := stringArg(v)
	if err != nil {
		return "", err
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%q is not an http or https URL", s)
	}
	return s, nil
}

func oneOf(v any, allowed ...string) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", errors.New("want a string")
	}
	for _, a := range allowed {
		if s == a {
			return s, nil
		}
	}
	return "", fmt.Errorf("%q is not one of %s", s, strings.Join(allowed, ", "))
}

func stopArg(v any) (any, error) {
	switch t := v.(type) {
	case string:
		return stringArg(t)
	case []any:
		if len(t) > maxStopItems {
			return nil, fmt.Errorf("more than %d stop sequences", maxStopItems)
		}
		for _, x := range t {
			if _, err := stringArg(x); err != nil {
				return nil, err
			}
		}
		return t, nil
	}
	return nil, errors.New("want a string or a list of strings")
}

func floatArg(v any, lo, hi float64) (float64, error) {
	var f float64
	switch t := v.(type) {
	case int:
		f = float64(t)
	case int64:
		f = float64(t)
	case float64:
		f = t
	default:
		return 0, errors.New("want a number")
	}
	if math.IsNaN(f) || f < lo || f > hi {
		return 0, fmt.Errorf("must be between %v and %v, got %v", lo, hi, f)
	}
	return f, nil
}

func intArg(v any, lo, hi int64) (int64, error) {
	var n int64
	switch t := v.(type) {
	case int:
		n = int64(t)
	case int64:
		n = t
	case uint64:
		if t > math.MaxInt64 {
			return 0, fmt.Errorf("must be between %d and %d", lo, hi)
		}
		n = int64(t)
	default:
		return 0, errors.New("want an integer")
	}
	if n < lo || n > hi {
		return 0, fmt.Errorf("must be between %d and %d, got %d", lo, hi, n)
	}
	return n, nil
}
