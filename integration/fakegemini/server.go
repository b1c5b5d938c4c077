package fakegemini

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"
)

// DefaultMaxRecorded is the number of requests a [Server] keeps by default.
const DefaultMaxRecorded = 1000

// Server is a fake Gemini REST API answering from a script. It is safe for
// concurrent use; the lock guarding its state is never held while a request
// waits for latency or writes its answer.
type Server struct {
	logger  *slog.Logger
	handler http.Handler

	mu       sync.Mutex
	queues   map[string][]entry // by model; "" is the global queue
	rules    []rule
	failures []failure
	latency  time.Duration
	log      requestLog
	caches   cacheStore
	openai   []ProviderReply // queued OpenAI Chat Completions answers
	// anthropic serves the Anthropic Messages and Claude on Vertex AI
	// routes.
	anthropic *Anthropic

	lifeMu sync.Mutex
	srv    *http.Server
	served chan struct{}
}

// failure is a pending injected error.
type failure struct {
	remaining int
	err       APIError
}

// Option configures a [Server].
type Option interface{ apply(*Server) }

type optionFunc func(*Server)

func (f optionFunc) apply(s *Server) { f(s) }

// WithLogger sets the logger; the default is slog.Default().
func WithLogger(l *slog.Logger) Option {
	return optionFunc(func(s *Server) { s.logger = l })
}

// WithMaxRecorded sets how many requests are kept (the most recent ones);
// the default is [DefaultMaxRecorded], and n <= 0 keeps none.
func WithMaxRecorded(n int) Option {
	return optionFunc(func(s *Server) { s.log.max = max(n, 0) })
}

// WithLatency sets the delay before every answer.
func WithLatency(d time.Duration) Option {
	return optionFunc(func(s *Server) { s.latency = d })
}

// New returns a Server with an empty script: every request gets the default
// echo answer until something is queued or a rule added.
func New(opts ...Option) *Server {
	s := &Server{
		logger:    slog.Default(),
		queues:    map[string][]entry{},
		log:       requestLog{max: DefaultMaxRecorded},
		anthropic: NewAnthropic(),
	}
	for _, o := range opts {
		o.apply(s)
	}
	s.anthropic.latency = s.latency
	s.handler = s.routes()
	return s
}

// Anthropic returns the part of the server that answers Anthropic's
// routes, to queue its answers and read its requests.
func (s *Server) Anthropic() *Anthropic { return s.anthropic }

// Handler returns the HTTP handler serving the Gemini API and the control
// API, for use with httptest or a server of the caller.
func (s *Server) Handler() http.Handler { return s.handler }

// Start listens on addr (e.g. "127.0.0.1:0") and serves in the background
// until [Server.Close] or [Server.Shutdown]. It returns the base URL, e.g.
// "http://127.0.0.1:8090".
func (s *Server) Start(addr string) (string, error) {
	s.lifeMu.Lock()
	defer s.lifeMu.Unlock()
	if s.srv != nil {
		return "", errors.New("fakegemini.start: already started")
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("fakegemini.start: %w", err)
	}
	s.srv = &http.Server{Handler: s.handler, ReadHeaderTimeout: 10 * time.Second}
	s.served = make(chan struct{})
	go func(srv *http.Server, done chan struct{}) {
		defer close(done)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.logger.Error("fakegemini serve failed", "err", err)
		}
	}(s.srv, s.served)
	return "http://" + ln.Addr().String(), nil
}

// Close stops a started server at once, closing open connections, and
// waits for it to stop. It is a no-op when the server was not started.
func (s *Server) Close() error {
	return s.stop(func(srv *http.Server) error { return srv.Close() })
}

// Shutdown stops a started server gracefully: it stops accepting, lets
// running requests finish until ctx ends, then returns.
func (s *Server) Shutdown(ctx context.Context) error {
	return s.stop(func(srv *http.Server) error { return srv.Shutdown(ctx) })
}

func (s *Server) stop(halt func(*http.Server) error) error {
	s.lifeMu.Lock()
	srv, served := s.srv, s.served
	s.srv, s.served = nil, nil
	s.lifeMu.Unlock()
	if srv == nil {
		return nil
	}
	err := halt(srv)
	<-served
	if err != nil {
		return fmt.Errorf("fakegemini.stop: %w", err)
	}
	return nil
}

// Enqueue appends answers to the queue of their Item.Model, or to the global
// queue when it is empty. A request takes the head of its model's queue
// first, then of the global queue. Nothing is queued when an item is
// invalid.
func (s *Server) Enqueue(items ...Item) error {
	entries := make([]entry, len(items))
	for i, it := range items {
		e, err := it.compile()
		if err != nil {
			return fmt.Errorf("fakegemini.enqueue: item %d: %w", i, err)
		}
		entries[i] = e
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range entries {
		s.queues[e.model] = append(s.queues[e.model], e)
	}
	return nil
}

// AddRule appends rules, consulted in order when no queued answer waits.
// Nothing is added when a rule is invalid.
func (s *Server) AddRule(rules ...Rule) error {
	compiled := make([]rule, len(rules))
	for i, r := range rules {
		e, err := r.Item.compile()
		if err != nil {
			return fmt.Errorf("fakegemini.add_rule: rule %d: %w", i, err)
		}
		compiled[i] = rule{entry: e, contains: r.Contains, tools: r.Tools}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rules = append(s.rules, compiled...)
	return nil
}

// Apply adds a whole script: its responses, its rules and its faults.
// Nothing changes when any part is invalid.
func (s *Server) Apply(sc Script) error {
	entries := make([]entry, len(sc.Responses))
	for i, it := range sc.Responses {
		e, err := it.compile()
		if err != nil {
			return fmt.Errorf("fakegemini.apply: response %d: %w", i, err)
		}
		entries[i] = e
	}
	rules := make([]rule, len(sc.Rules))
	for i, r := range sc.Rules {
		e, err := r.Item.compile()
		if err != nil {
			return fmt.Errorf("fakegemini.apply: rule %d: %w", i, err)
		}
		rules[i] = rule{entry: e, contains: r.Contains, tools: r.Tools}
	}
	var fail *failure
	if sc.Faults != nil {
		f, err := sc.Faults.compile()
		if err != nil {
			return fmt.Errorf("fakegemini.apply: %w", err)
		}
		fail = f
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range entries {
		s.queues[e.model] = append(s.queues[e.model], e)
	}
	s.rules = append(s.rules, rules...)
	if sc.Faults != nil {
		s.applyFaultsLocked(sc.Faults, fail)
	}
	return nil
}

// SetFaults applies faults as POST /_fake/faults does.
func (s *Server) SetFaults(f Faults) error {
	fail, err := f.compile()
	if err != nil {
		return fmt.Errorf("fakegemini.set_faults: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.applyFaultsLocked(&f, fail)
	return nil
}

func (f *Faults) compile() (*failure, error) {
	if f.Latency != nil && *f.Latency < 0 {
		return nil, errors.New("latency: negative")
	}
	if f.Fail == nil {
		return nil, nil
	}
	if f.Fail.Count < 1 {
		return nil, fmt.Errorf("fail: count %d < 1", f.Fail.Count)
	}
	if f.Fail.Code < 400 || f.Fail.Code > 599 {
		return nil, fmt.Errorf("fail: code %d is not an HTTP error status", f.Fail.Code)
	}
	return &failure{remaining: f.Fail.Count, err: f.Fail.APIError}, nil
}

func (s *Server) applyFaultsLocked(f *Faults, fail *failure) {
	if f.Latency != nil {
		s.latency = time.Duration(*f.Latency)
	}
	if fail != nil {
		s.failures = append(s.failures, *fail)
	}
}

// SetLatency sets the delay before every answer; zero removes it.
func (s *Server) SetLatency(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.latency = max(d, 0)
}

// FailNext makes the next n requests answer HTTP status code with Google's
// error JSON carrying message; a code that is not an HTTP error status (400
// to 599) becomes 500. Calls accumulate: a second FailNext takes effect once
// the first is used up.
func (s *Server) FailNext(n, code int, message string) {
	if n < 1 {
		return
	}
	if code < 400 || code > 599 {
		code = http.StatusInternalServerError
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failures = append(s.failures, failure{remaining: n, err: APIError{Code: code, Message: message}})
}

// Reset forgets queued answers, rules, faults, latency, recorded requests
// and caches, and sets the clock back to the real time.
func (s *Server) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.queues)
	s.rules = nil
	s.failures = nil
	s.latency = 0
	s.log.reset()
	s.caches.reset()
	s.openai = nil
}

// Requests returns the recorded requests, oldest first.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	reqs := s.log.snapshot()
	s.mu.Unlock()
	parseBodies(reqs)
	return reqs
}
