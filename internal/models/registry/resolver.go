package registry

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/agentsvc/agentsvc/internal/models"
)

// Constructor builds the model of a spec; it is called once per spec and
// its model is kept.
type Constructor func(ctx context.Context, spec Spec) (models.Model, error)

// ErrAnthropicUnavailable is the error of a Claude or anthropic/ model
// when no Anthropic adapter is wired.
var ErrAnthropicUnavailable = errors.New("anthropic models are not available")

// ErrOpenAIUnavailable is the error of an OpenAI-compatible model when no
// OpenAI adapter is wired.
var ErrOpenAIUnavailable = errors.New("OpenAI-compatible models are not available")

// ErrGeminiUnavailable is the error of a Gemini model when no Gemini
// resolver is wired (the service found no Gemini credentials).
var ErrGeminiUnavailable = errors.New("gemini models are not available")

// Resolver is the [models.Resolver] of one app: names its agents declared
// with model_code resolve to their [Spec]s, other names by pattern (see
// [FromName]). It is safe for concurrent use once built; its fields must
// not change after the first call.
type Resolver struct {
	// Specs are the app's model_code declarations, by the model name the
	// engine knows them by.
	Specs map[string]Spec
	// Gemini serves Gemini models; nil makes them fail with
	// [ErrGeminiUnavailable].
	Gemini models.Resolver
	// OpenAI builds OpenAI-compatible models; nil makes them fail with
	// [ErrOpenAIUnavailable].
	OpenAI Constructor
	// Anthropic builds Anthropic models (Claude and anthropic/); nil makes
	// them fail with [ErrAnthropicUnavailable].
	Anthropic Constructor

	mu    sync.Mutex
	built map[string]models.Model
}

var _ models.Resolver = (*Resolver)(nil)

// Spec returns the spec of name: its model_code declaration, else what
// [FromName] makes of it.
func (r *Resolver) Spec(name string) (Spec, error) {
	if s, ok := r.Specs[name]; ok {
		return s, nil
	}
	return FromName(name)
}

// Model returns the model of name, building it at the first call.
func (r *Resolver) Model(ctx context.Context, name string) (models.Model, error) {
	spec, err := r.Spec(name)
	if err != nil {
		return nil, err
	}
	if spec.Kind == KindGemini {
		if r.Gemini == nil {
			return nil, ErrGeminiUnavailable
		}
		return r.Gemini.Model(ctx, name)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if m, ok := r.built[name]; ok {
		return m, nil
	}
	m, err := r.build(ctx, spec)
	if err != nil {
		return nil, err
	}
	if r.built == nil {
		r.built = map[string]models.Model{}
	}
	r.built[name] = m
	return m, nil
}

func (r *Resolver) build(ctx context.Context, spec Spec) (models.Model, error) {
	var c Constructor
	var unavailable error
	switch spec.Kind {
	case KindOpenAI:
		c, unavailable = r.OpenAI, ErrOpenAIUnavailable
	case KindAnthropic:
		c, unavailable = r.Anthropic, ErrAnthropicUnavailable
	default:
		return nil, fmt.Errorf("registry: model %q: unknown kind %q", spec.Name, spec.Kind)
	}
	if c == nil {
		return nil, unavailable
	}
	return c(ctx, spec)
}

// Check builds every model the app declared with model_code, so that a
// model that cannot be served (no adapter, no credentials) stops start-up
// rather than its first call. Errors name the declaration's Source.
func (r *Resolver) Check(ctx context.Context) error {
	for _, name := range slices.Sorted(maps.Keys(r.Specs)) {
		if _, err := r.Model(ctx, name); err != nil {
			return fmt.Errorf("%s: %w", r.Specs[name].Source, err)
		}
	}
	return nil
}
