package llmagent_test

import (
	"context"
	"iter"
	"sync"
	"testing"
	"time"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/models/scripted"
	"github.com/agentsvc/agentsvc/internal/retry"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
)

// policyModel is a scripted model that records the retry policy each
// call's context carries.
type policyModel struct {
	scripted *scripted.Model
	mu       sync.Mutex
	policies []*retry.Config
}

func (m *policyModel) GenerateContent(ctx context.Context, req *v1.LlmRequest, stream bool) iter.Seq2[*v1.LlmResponse, error] {
	m.mu.Lock()
	if p, ok := retry.FromContext(ctx); ok {
		m.policies = append(m.policies, &p)
	} else {
		m.policies = append(m.policies, nil)
	}
	m.mu.Unlock()
	return m.scripted.GenerateContent(ctx, req, stream)
}

// Name is the scripted model's.
func (m *policyModel) Name() string { return m.scripted.Name() }

// Model resolves every name to m.
func (m *policyModel) Model(context.Context, string) (models.Model, error) { return m, nil }

// TestAgentRetryPolicyReachesTheModel checks that an agent's retry_config
// travels with its model calls, and that an agent without one leaves the
// model's own policy.
func TestAgentRetryPolicyReachesTheModel(t *testing.T) {
	t.Parallel()
	policy := retry.Config{MaxAttempts: 4, InitialDelay: time.Second, BackoffFactor: 2}
	for _, tt := range []struct {
		name string
		set  *retry.Config
	}{{"set", &policy}, {"unset", nil}} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := et.New(t, newAgent(t, llmagent.Config{Retry: tt.set}))
			m := &policyModel{scripted: scripted.New(modelName, et.Text("hi"))}
			h.Runner.Models = m
			h.RunText(t, h.NewSession(t, nil), "q")
			if len(m.policies) != 1 {
				t.Fatalf("model calls = %d, want 1", len(m.policies))
			}
			got := m.policies[0]
			if (got == nil) != (tt.set == nil) || got != nil && got.MaxAttempts != tt.set.MaxAttempts {
				t.Errorf("policy on the call = %+v, want %+v", got, tt.set)
			}
		})
	}
}
