package server_test

import (
	"context"
	"fmt"
	"iter"
	"sync"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/server"
	"github.com/agentsvc/agentsvc/internal/sessions"
	"github.com/agentsvc/agentsvc/internal/sessions/memory"
)

// gateModel answers "ok" at once, except to a message of holdUser's text,
// which it answers once gate is closed; entered receives one value per
// such call.
type gateModel struct {
	gate    chan struct{}
	entered chan struct{}
}

func (*gateModel) Name() string { return modelName }

func (m *gateModel) GenerateContent(ctx context.Context, req *v1.LlmRequest, _ bool) iter.Seq2[*v1.LlmResponse, error] {
	return func(yield func(*v1.LlmResponse, error) bool) {
		if holdsUser(req) {
			m.entered <- struct{}{}
			select {
			case <-m.gate:
			case <-ctx.Done():
				yield(nil, ctx.Err())
				return
			}
		}
		yield(&v1.LlmResponse{Content: &v1.Content{Role: "model", Parts: []*v1.Part{{Text: "ok"}}}}, nil)
	}
}

// holdUser is the user whose runs gateModel holds.
const holdUser = "hog"

// holdsUser reports whether req's last user text names holdUser.
func holdsUser(req *v1.LlmRequest) bool {
	cs := req.GetContents()
	if len(cs) == 0 {
		return false
	}
	ps := cs[len(cs)-1].GetParts()
	return len(ps) > 0 && ps[len(ps)-1].GetText() == holdUser
}

type gateResolver struct{ m *gateModel }

func (r gateResolver) Model(context.Context, string) (models.Model, error) { return r.m, nil }

// TestUserDefaultsProtectOtherUsers runs the per-user defaults of agentsvc
// serve: one user firing 128 runs at once gets all but
// DefaultMaxConcurrentInvocationsPerUser refused with USER_INVOCATION_LIMIT
// while those are held, and another user's runs meanwhile are all served.
func TestUserDefaultsProtectOtherUsers(t *testing.T) {
	t.Parallel()
	const burst, other = 128, 20
	m := &gateModel{gate: make(chan struct{}), entered: make(chan struct{}, burst)}
	store := memory.New()
	fx := newFixture(t, withStore(store), withModels(gateResolver{m}), withConfig(func(c *server.Config) {
		c.MaxConcurrentInvocationsPerUser = server.DefaultMaxConcurrentInvocationsPerUser
		c.UserRate, c.UserBurst = server.DefaultUserRate, server.DefaultUserBurst
		c.MaxSessionsPerUser = server.DefaultMaxSessionsPerUser
	}))
	ctx := t.Context()
	for i := range burst {
		mustCreate(t, store, holdUser, fmt.Sprintf("h%d", i))
	}
	for i := range other {
		mustCreate(t, store, userID, fmt.Sprintf("o%d", i))
	}
	run := func(user, sid string) error {
		_, err := fx.run(ctx, &api.RunRequest{AppName: appName, UserId: user, SessionId: sid,
			NewMessage: &v1.Content{Role: "user", Parts: []*v1.Part{{Text: user}}}})
		return err
	}
	var wg sync.WaitGroup
	errs := make(chan error, burst)
	for i := range burst {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- run(holdUser, fmt.Sprintf("h%d", i))
		}()
	}
	// The runs that got in are held in the model; every other one has
	// been answered by the time the first refusals are counted.
	refusedHog := 0
	for range burst - server.DefaultMaxConcurrentInvocationsPerUser {
		err := <-errs
		if st := status.Convert(err); st.Code() != codes.ResourceExhausted || errorReason(err) != "USER_INVOCATION_LIMIT" {
			t.Errorf("hog's run past the cap: %v, want RESOURCE_EXHAUSTED USER_INVOCATION_LIMIT", err)
			continue
		}
		refusedHog++
	}
	for range server.DefaultMaxConcurrentInvocationsPerUser {
		<-m.entered
	}
	for i := range other {
		if err := run(userID, fmt.Sprintf("o%d", i)); err != nil {
			t.Errorf("the other user's run %d while the hog's are held: %v", i, err)
		}
	}
	close(m.gate)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("a held run of the hog: %v", err)
		}
	}
	if refusedHog != burst-server.DefaultMaxConcurrentInvocationsPerUser {
		t.Errorf("hog refused %d times, want %d", refusedHog, burst-server.DefaultMaxConcurrentInvocationsPerUser)
	}
}

// mustCreate creates session sid of user in store.
func mustCreate(t *testing.T, store sessions.Service, user, sid string) {
	t.Helper()
	if _, err := store.Create(t.Context(), sessions.CreateRequest{AppName: appName, UserID: user, SessionID: sid}); err != nil {
		t.Fatal(err)
	}
}
