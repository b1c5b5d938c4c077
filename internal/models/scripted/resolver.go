package scripted

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/agentsvc/agentsvc/internal/models"
)

// ErrUnknownModel is returned (wrapped) by [Resolver.Model] for a name no
// model was added under.
var ErrUnknownModel = errors.New("scripted: unknown model")

// Resolver resolves names to scripted models, so that tests register them
// like real ones. It is safe for concurrent use.
type Resolver struct {
	mu     sync.RWMutex
	models map[string]*Model
}

var _ models.Resolver = (*Resolver)(nil)

// NewResolver returns a Resolver holding ms under their names.
func NewResolver(ms ...*Model) *Resolver {
	r := &Resolver{models: make(map[string]*Model, len(ms))}
	for _, m := range ms {
		r.models[m.Name()] = m
	}
	return r
}

// Add registers m under its name, replacing a model of the same name.
func (r *Resolver) Add(m *Model) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.models[m.Name()] = m
}

// Model returns the model registered under name.
func (r *Resolver) Model(_ context.Context, name string) (models.Model, error) {
	r.mu.RLock()
	m, ok := r.models[name]
	r.mu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("scripted.model: %q: %w", name, ErrUnknownModel)
	}
	return m, nil
}
