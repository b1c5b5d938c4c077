// Package tlsconfig builds the server TLS configuration of both listeners
// from a certificate, its key and optionally a client CA, and reloads them
// when their files change, so that a certificate rotates without a restart.
//
// It imports only the standard library.
package tlsconfig

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultCheckInterval is how often, at most, a handshake looks at the
// files for changes.
const DefaultCheckInterval = 2 * time.Second

// Options name the files of a [Reloader].
type Options struct {
	// CertFile and KeyFile hold the server's PEM certificate chain and its
	// private key. Both are required.
	CertFile, KeyFile string
	// ClientCAFile, when set, holds the PEM CA certificates that client
	// certificates must chain to; clients without one are refused (mTLS).
	ClientCAFile string
	// CheckInterval is how often, at most, a handshake stats the files;
	// 0 means [DefaultCheckInterval], a negative value every handshake.
	CheckInterval time.Duration
	// Logger receives a warning when changed files cannot be loaded.
	Logger *slog.Logger
}

// material is one loaded generation of the files.
type material struct {
	cert    *tls.Certificate
	clients *x509.CertPool // nil without a client CA
}

// stamp identifies the versions of the files on disk.
type stamp [3]fileStamp

type fileStamp struct {
	mod  time.Time
	size int64
}

// Reloader serves the current certificate and client CA of its files,
// reloading them when a file's modification time or size changes. A
// changed file that does not load keeps the previous pair in service and
// logs a warning. Its methods are safe for concurrent use.
type Reloader struct {
	opts     Options
	interval time.Duration
	log      *slog.Logger

	cur       atomic.Pointer[material]
	nextCheck atomic.Int64 // unix nanoseconds

	mu   sync.Mutex
	seen stamp // the files last looked at, loaded or not
}

// New loads the files of o. Unlike a later reload, a file that does not
// load is an error here.
func New(o Options) (*Reloader, error) {
	if o.CertFile == "" || o.KeyFile == "" {
		return nil, errors.New("tls: both a certificate and a key file are needed")
	}
	r := &Reloader{opts: o, interval: o.CheckInterval, log: o.Logger}
	if r.interval == 0 {
		r.interval = DefaultCheckInterval
	}
	if r.log == nil {
		r.log = slog.New(slog.DiscardHandler)
	}
	r.seen = r.stat()
	m, err := r.load()
	if err != nil {
		return nil, err
	}
	r.cur.Store(m)
	r.nextCheck.Store(time.Now().Add(r.interval).UnixNano())
	return r, nil
}

// MutualTLS reports whether client certificates are required.
func (r *Reloader) MutualTLS() bool { return r.opts.ClientCAFile != "" }

// Config returns a server configuration that serves the current files and
// negotiates nextProtos with ALPN (for example "h2" for gRPC, "h2" and
// "http/1.1" for HTTP). Each handshake gets a configuration of its own
// from GetConfigForClient, so callers may clone the result freely.
func (r *Reloader) Config(nextProtos ...string) *tls.Config {
	protos := append([]string(nil), nextProtos...)
	cfg := r.configFor(r.cur.Load(), protos)
	cfg.GetConfigForClient = func(*tls.ClientHelloInfo) (*tls.Config, error) {
		return r.configFor(r.current(), protos), nil
	}
	return cfg
}

func (r *Reloader) configFor(m *material, protos []string) *tls.Config {
	cfg := &tls.Config{
		MinVersion:   tls.VersionTLS12,
		Certificates: []tls.Certificate{*m.cert},
		NextProtos:   protos,
	}
	if m.clients != nil {
		cfg.ClientAuth = tls.RequireAndVerifyClientCert
		cfg.ClientCAs = m.clients
	}
	return cfg
}

// current returns the material in service, first reloading the files if
// they changed and the check interval has elapsed.
func (r *Reloader) current() *material {
	if now := time.Now().UnixNano(); r.interval < 0 || now >= r.nextCheck.Load() {
		r.maybeReload(now)
	}
	return r.cur.Load()
}

// Certificate returns the server certificate in service (after a check for
// changed files), for tests and logs.
func (r *Reloader) Certificate() *tls.Certificate { return r.current().cert }

func (r *Reloader) maybeReload(now int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.interval >= 0 && now < r.nextCheck.Load() {
		return // another handshake checked meanwhile
	}
	r.nextCheck.Store(now + int64(r.interval))
	st := r.stat()
	if st == r.seen {
		return
	}
	r.seen = st
	m, err := r.load()
	if err != nil {
		r.log.Warn("tls: changed certificate files do not load; keeping the previous ones", "err", err)
		return
	}
	r.cur.Store(m)
	r.log.Info("tls: certificate reloaded", "cert", r.opts.CertFile, "not_after", m.cert.Leaf.NotAfter)
}

func (r *Reloader) stat() stamp {
	var st stamp
	for i, name := range []string{r.opts.CertFile, r.opts.KeyFile, r.opts.ClientCAFile} {
		if name == "" {
			continue
		}
		if fi, err := os.Stat(name); err == nil {
			st[i] = fileStamp{mod: fi.ModTime(), size: fi.Size()}
		}
	}
	return st
}

func (r *Reloader) load() (*material, error) {
	cert, err := tls.LoadX509KeyPair(r.opts.CertFile, r.opts.KeyFile)
	if err != nil {
		return nil, fmt.Errorf("tls: load %s and %s: %w", r.opts.CertFile, r.opts.KeyFile, err)
	}
	if cert.Leaf == nil {
		if cert.Leaf, err = x509.ParseCertificate(cert.Certificate[0]); err != nil {
			return nil, fmt.Errorf("tls: parse %s: %w", r.opts.CertFile, err)
		}
	}
	m := &material{cert: &cert}
	if r.opts.ClientCAFile != "" {
		pem, err := os.ReadFile(r.opts.ClientCAFile)
		if err != nil {
			return nil, fmt.Errorf("tls: client CA: %w", err)
		}
		m.clients = x509.NewCertPool()
		if !m.clients.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("tls: client CA %s: no PEM certificate in it", r.opts.ClientCAFile)
		}
	}
	return m, nil
}
