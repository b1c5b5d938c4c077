package server_test

import (
	"context"
	"iter"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/server"
	"github.com/agentsvc/agentsvc/internal/sessions"
	"github.com/agentsvc/agentsvc/internal/sessions/memory"
)

// fuzzSession is the session every fuzz fixture creates before the fuzzed
// request, so that requests naming it reach the engine.
const fuzzSession = "s1"

// fuzzCallID is the id the fuzz model gives its function calls, so that a
// fuzzed tool_result can answer one.
const fuzzCallID = "c1"

// fuzzModel answers every call at once and never fails: a user text
// "call <city>" makes it call get_weather (id fuzzCallID) for that city, a
// function response or any other text makes it answer "ok". The invariants
// of the fuzz targets then only depend on the fuzzed request. It counts
// its calls.
type fuzzModel struct{ calls atomic.Int64 }

func (*fuzzModel) Name() string { return modelName }

func (m *fuzzModel) GenerateContent(_ context.Context, req *v1.LlmRequest, _ bool) iter.Seq2[*v1.LlmResponse, error] {
	m.calls.Add(1)
	resp := &v1.LlmResponse{Content: &v1.Content{Role: "model", Parts: []*v1.Part{{Text: "ok"}}}}
	if n := len(req.GetContents()); n > 0 {
		last := req.GetContents()[n-1]
		if ps := last.GetParts(); last.GetRole() == "user" && len(ps) > 0 {
			if city, ok := strings.CutPrefix(ps[len(ps)-1].GetText(), "call "); ok {
				resp.Content.Parts[0] = &v1.Part{FunctionCall: &v1.FunctionCall{Id: fuzzCallID, Name: "get_weather",
					Args: &structpb.Struct{Fields: map[string]*structpb.Value{"city": structpb.NewStringValue(city)}}}}
			}
		}
	}
	return func(yield func(*v1.LlmResponse, error) bool) { yield(resp, nil) }
}

// fuzzResolver resolves every model name to its [fuzzModel].
type fuzzResolver struct{ model *fuzzModel }

func (r fuzzResolver) Model(context.Context, string) (models.Model, error) { return r.model, nil }

// countingStore is a session store that counts the writes that succeeded,
// so that a fuzz target can check that a rejected request stored nothing.
type countingStore struct {
	sessions.Service
	writes atomic.Int64
}

func (c *countingStore) Create(ctx context.Context, req sessions.CreateRequest) (*v1.Session, error) {
	s, err := c.Service.Create(ctx, req)
	if err == nil {
		c.writes.Add(1)
	}
	return s, err
}

func (c *countingStore) Delete(ctx context.Context, app, user, session string) error {
	err := c.Service.Delete(ctx, app, user, session)
	if err == nil {
		c.writes.Add(1)
	}
	return err
}

func (c *countingStore) AppendEvent(ctx context.Context, sess *v1.Session, ev *v1.Event) error {
	err := c.Service.AppendEvent(ctx, sess, ev)
	if err == nil {
		c.writes.Add(1)
	}
	return err
}

// fuzzFixture is a server running the desk app on a [fuzzModel] over an
// in-memory store holding the session fuzzSession of userID. Its store and
// model are the fixture's, with their own types.
type fuzzFixture struct {
	*fixture
	store *countingStore
	model *fuzzModel
}

func newFuzzFixture(t testing.TB) *fuzzFixture {
	t.Helper()
	store := &countingStore{Service: memory.New()}
	model := &fuzzModel{}
	fx := &fuzzFixture{store: store, model: model}
	fx.fixture = newFixture(t, withStore(store), withModels(fuzzResolver{model}), withoutGRPC(),
		withConfig(func(cfg *server.Config) { cfg.ToolTimeout = 50 * time.Millisecond }))
	fx.resetSession(t)
	return fx
}

// resetSession creates the session fuzzSession afresh, without counting
// the writes, so that a fixture shared by many inputs keeps it small.
func (f *fuzzFixture) resetSession(t testing.TB) {
	t.Helper()
	ctx := context.Background()
	if err := f.store.Service.Delete(ctx, appName, userID, fuzzSession); err != nil {
		t.Fatal(err)
	}
	if _, err := f.store.Service.Create(ctx, sessions.CreateRequest{AppName: appName, UserID: userID,
		SessionID: fuzzSession, State: structOf(map[string]any{"city": "Paris"})}); err != nil {
		t.Fatal(err)
	}
}

// started reports whether the model was called since it had made calls
// calls: a request that failed after that ran, and the events it stored
// before the failure stay stored; one that failed before was rejected.
func (f *fuzzFixture) started(calls int64) bool { return f.model.calls.Load() > calls }

// structOf is m as a Struct; it panics on values a Struct cannot hold
// (test data).
func structOf(m map[string]any) *structpb.Struct {
	s, err := structpb.NewStruct(m)
	if err != nil {
		panic(err)
	}
	return s
}
