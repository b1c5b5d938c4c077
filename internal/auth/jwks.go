package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"golang.org/x/time/rate"
)

// Bounds of a key set.
const (
	maxJWKSBytes = 1 << 20
	maxJWKSKeys  = 100
)

// errUnknownKey is the failure of a token signed with a key the set does not
// hold.
var errUnknownKey = errors.New("no key of the JWKS matches the token")

// keySource gives the key that verifies a token of key id kid signed with
// alg.
type keySource interface {
	key(ctx context.Context, kid, alg string) (*jose.JSONWebKey, error)
}

// keySet is a parsed JWKS: its public signing keys.
type keySet struct {
	keys []jose.JSONWebKey
}

// parseKeySet parses a JWKS, keeping the public keys meant for signatures
// and skipping, with a warning, keys it cannot use: an unknown key type
// among others must not make the whole set unusable.
func parseKeySet(data []byte, log *slog.Logger) (*keySet, error) {
	var doc struct {
		Keys []json.RawMessage `json:"keys"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("auth: parse JWKS: %w", err)
	}
	if len(doc.Keys) > maxJWKSKeys {
		return nil, fmt.Errorf("auth: JWKS has %d keys, more than %d", len(doc.Keys), maxJWKSKeys)
	}
	ks := &keySet{}
	for i, raw := range doc.Keys {
		var k jose.JSONWebKey
		if err := k.UnmarshalJSON(raw); err != nil {
			log.Warn("auth: JWKS key skipped", "index", i, "err", err)
			continue
		}
		if k.Use != "" && k.Use != "sig" {
			continue
		}
		if _, symmetric := k.Key.([]byte); symmetric || !k.Valid() {
			log.Warn("auth: JWKS key skipped: not an asymmetric key", "index", i, "kid", k.KeyID)
			continue
		}
		ks.keys = append(ks.keys, k.Public())
	}
	return ks, nil
}

// find returns the key of id kid for alg. A token without a key id is
// verified with the set's only key, if it has just one.
func (s *keySet) find(kid, alg string) (*jose.JSONWebKey, error) {
	if s == nil {
		return nil, errUnknownKey
	}
	if kid == "" {
		if len(s.keys) == 1 && (s.keys[0].Algorithm == "" || s.keys[0].Algorithm == alg) {
			return &s.keys[0], nil
		}
		return nil, errUnknownKey
	}
	for i := range s.keys {
		if k := &s.keys[i]; k.KeyID == kid {
			if k.Algorithm != "" && k.Algorithm != alg {
				return nil, fmt.Errorf("token algorithm %s does not match key %q", alg, kid)
			}
			return k, nil
		}
	}
	return nil, errUnknownKey
}

// remoteKeys is a JWKS fetched from a URL and cached. A token whose key id
// the cache lacks causes a new fetch, at most one per refetch interval so
// that tokens with made-up key ids cannot hammer the JWKS server; keys
// older than their maximum age are fetched again in the background.
type remoteKeys struct {
	url     string
	client  *http.Client
	timeout time.Duration
	maxAge  time.Duration
	log     *slog.Logger
	now     func() time.Time

	cur        atomic.Pointer[keySet]
	fetchedAt  atomic.Int64 // unix nanoseconds
	refreshing atomic.Bool
	// mu serialises fetches; refetches waits for a token under it.
	mu        sync.Mutex
	refetches *rate.Limiter
}

func newRemoteKeys(url string, client *http.Client, cfg Config, log *slog.Logger) *remoteKeys {
	return &remoteKeys{
		url: url, client: client, timeout: cfg.FetchTimeout, maxAge: cfg.MaxKeyAge, log: log, now: time.Now,
		refetches: rate.NewLimiter(rate.Every(cfg.RefetchInterval), 1),
	}
}

func (r *remoteKeys) key(ctx context.Context, kid, alg string) (*jose.JSONWebKey, error) {
	ks := r.cur.Load()
	k, err := ks.find(kid, alg)
	if !errors.Is(err, errUnknownKey) {
		if err == nil && r.now().UnixNano()-r.fetchedAt.Load() > int64(r.maxAge) && r.refreshing.CompareAndSwap(false, true) {
			go func() {
				defer r.refreshing.Store(false)
				r.mu.Lock()
				defer r.mu.Unlock()
				if err := r.fetch(context.WithoutCancel(ctx)); err != nil {
					r.log.WarnContext(ctx, "auth: JWKS refresh failed; keeping the cached keys", "url", r.url, "err", err)
				}
			}()
		}
		return k, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if now := r.cur.Load(); now != ks {
		// Fetched while this call waited.
		return now.find(kid, alg)
	}
	if !r.refetches.Allow() {
		return nil, fmt.Errorf("%w (JWKS refetch rate-limited)", errUnknownKey)
	}
	if err := r.fetch(context.WithoutCancel(ctx)); err != nil {
		r.log.WarnContext(ctx, "auth: JWKS fetch failed", "url", r.url, "err", err)
		return nil, fmt.Errorf("%w (JWKS fetch failed)", errUnknownKey)
	}
	return r.cur.Load().find(kid, alg)
}

// fetch gets and parses the JWKS, bounded by the fetch timeout, and serves
// it from then on.
func (r *remoteKeys) fetch(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.url, nil)
	if err != nil {
		return fmt.Errorf("auth: fetch JWKS: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := r.client.Do(req)
	if err != nil {
		return fmt.Errorf("auth: fetch JWKS: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("auth: fetch JWKS: HTTP %d", resp.StatusCode)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxJWKSBytes+1))
	if err != nil {
		return fmt.Errorf("auth: fetch JWKS: %w", err)
	}
	if len(data) > maxJWKSBytes {
		return fmt.Errorf("auth: fetch JWKS: larger than %d bytes", maxJWKSBytes)
	}
	ks, err := parseKeySet(data, r.log)
	if err != nil {
		return err
	}
	r.cur.Store(ks)
	r.fetchedAt.Store(r.now().UnixNano())
	return nil
}

// fileKeys is a JWKS read from a file and read again when the file's size
// or modification time changes, checked at most once per interval.
type fileKeys struct {
	path     string
	interval time.Duration
	log      *slog.Logger

	cur       atomic.Pointer[keySet]
	nextCheck atomic.Int64
	mu        sync.Mutex
	seen      fileStamp
}

type fileStamp struct {
	mod  time.Time
	size int64
}

// newFileKeys reads the file once; it must hold a valid JWKS.
func newFileKeys(path string, interval time.Duration, log *slog.Logger) (*fileKeys, error) {
	f := &fileKeys{path: path, interval: interval, log: log}
	st, ks, err := f.load()
	if err != nil {
		return nil, err
	}
	f.seen = st
	f.cur.Store(ks)
	f.nextCheck.Store(time.Now().UnixNano() + int64(interval))
	return f, nil
}

func (f *fileKeys) key(_ context.Context, kid, alg string) (*jose.JSONWebKey, error) {
	if now := time.Now().UnixNano(); f.interval < 0 || now >= f.nextCheck.Load() {
		f.maybeReload(now)
	}
	return f.cur.Load().find(kid, alg)
}

func (f *fileKeys) maybeReload(now int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.interval >= 0 && now < f.nextCheck.Load() {
		return
	}
	f.nextCheck.Store(now + int64(f.interval))
	fi, err := os.Stat(f.path)
	if err != nil || (fileStamp{fi.ModTime(), fi.Size()}) == f.seen {
		return
	}
	st, ks, err := f.load()
	if err != nil {
		f.log.Warn("auth: changed JWKS file does not load; keeping the previous keys", "file", f.path, "err", err)
		return
	}
	f.seen = st
	f.cur.Store(ks)
	f.log.Info("auth: JWKS file reloaded", "file", f.path, "keys", len(ks.keys))
}

func (f *fileKeys) load() (fileStamp, *keySet, error) {
	fh, err := os.Open(f.path)
	if err != nil {
		return fileStamp{}, nil, fmt.Errorf("auth: JWKS file: %w", err)
	}
	defer fh.Close()
	fi, err := fh.Stat()
	if err != nil {
		return fileStamp{}, nil, fmt.Errorf("auth: JWKS file: %w", err)
	}
	data, err := io.ReadAll(io.LimitReader(fh, maxJWKSBytes+1))
	if err != nil {
		return fileStamp{}, nil, fmt.Errorf("auth: JWKS file: %w", err)
	}
	if len(data) > maxJWKSBytes {
		return fileStamp{}, nil, fmt.Errorf("auth: JWKS file is larger than %d bytes", maxJWKSBytes)
	}
	ks, err := parseKeySet(data, f.log)
	if err != nil {
		return fileStamp{}, nil, err
	}
	return fileStamp{fi.ModTime(), fi.Size()}, ks, nil
}
