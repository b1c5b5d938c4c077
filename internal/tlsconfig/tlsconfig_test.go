package tlsconfig

import (
	"bytes"
	"context"
	"crypto/tls"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/tlsconfig/tlstest"
)

// serveTLS accepts TLS connections with cfg on loopback and answers each
// with "ok" once its handshake is done; it returns the address.
func serveTLS(t *testing.T, cfg *tls.Config) string {
	t.Helper()
	lis, err := tls.Listen("tcp", "127.0.0.1:0", cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lis.Close() })
	go func() {
		for {
			c, err := lis.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				if err := c.(*tls.Conn).Handshake(); err == nil {
					_, _ = io.WriteString(c, "ok")
				}
			}()
		}
	}()
	return lis.Addr().String()
}

// dial handshakes with addr, reads the greeting and returns the serial of
// the server's certificate.
func dial(addr string, cfg *tls.Config) (int64, error) {
	d := &tls.Dialer{Config: cfg}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	if err := c.SetDeadline(time.Now().Add(5 * time.Second)); err != nil {
		return 0, err
	}
	// With TLS 1.3 a refused client certificate shows on the first read.
	if _, err := io.ReadAll(c); err != nil {
		return 0, err
	}
	tc := c.(*tls.Conn)
	return tc.ConnectionState().PeerCertificates[0].SerialNumber.Int64(), nil
}

func TestMutualTLS(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ca := tlstest.NewCA(t, "ca")
	other := tlstest.NewCA(t, "other")
	c, k := ca.Issue(t, 1, false)
	r, err := New(Options{
		CertFile: tlstest.WriteFile(t, dir, "cert.pem", c), KeyFile: tlstest.WriteFile(t, dir, "key.pem", k),
		ClientCAFile: tlstest.WriteFile(t, dir, "ca.pem", ca.PEM),
	})
	if err != nil {
		t.Fatal(err)
	}
	addr := serveTLS(t, r.Config("x"))
	for _, tc := range []struct {
		name   string
		certs  []tls.Certificate
		wantOK bool
	}{
		{"client certificate from the CA", []tls.Certificate{ca.ClientCert(t)}, true},
		{"no client certificate", nil, false},
		{"client certificate from another CA", []tls.Certificate{other.ClientCert(t)}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := dial(addr, &tls.Config{RootCAs: ca.Pool(), ServerName: "localhost", Certificates: tc.certs, NextProtos: []string{"x"}})
			if (err == nil) != tc.wantOK {
				t.Errorf("dial: err = %v, want success %v", err, tc.wantOK)
			}
		})
	}
}

func TestServerOnlyTLS(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ca := tlstest.NewCA(t, "ca")
	c, k := ca.Issue(t, 1, false)
	r, err := New(Options{CertFile: tlstest.WriteFile(t, dir, "cert.pem", c), KeyFile: tlstest.WriteFile(t, dir, "key.pem", k)})
	if err != nil {
		t.Fatal(err)
	}
	if r.MutualTLS() {
		t.Error("MutualTLS without a client CA")
	}
	addr := serveTLS(t, r.Config())
	if _, err := dial(addr, &tls.Config{RootCAs: ca.Pool(), ServerName: "127.0.0.1"}); err != nil {
		t.Errorf("client without a certificate: %v", err)
	}
	if _, err := dial(addr, &tls.Config{RootCAs: tlstest.NewCA(t, "other").Pool(), ServerName: "localhost"}); err == nil {
		t.Error("a client that does not trust the CA connected")
	}
}

func TestReload(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ca := tlstest.NewCA(t, "ca")
	c1, k1 := ca.Issue(t, 1, false)
	var logs syncWriter
	r, err := New(Options{
		CertFile: tlstest.WriteFile(t, dir, "cert.pem", c1), KeyFile: tlstest.WriteFile(t, dir, "key.pem", k1),
		CheckInterval: -1, Logger: slog.New(slog.NewTextHandler(&logs, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	addr := serveTLS(t, r.Config())
	client := &tls.Config{RootCAs: ca.Pool(), ServerName: "localhost"}
	serial := func() int64 {
		t.Helper()
		s, err := dial(addr, client)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if got := serial(); got != 1 {
		t.Fatalf("serial %d, want 1", got)
	}

	// A new pair is served on the next handshake.
	c2, k2 := ca.Issue(t, 2, false)
	tlstest.WriteFile(t, dir, "cert.pem", c2)
	tlstest.WriteFile(t, dir, "key.pem", k2)
	if got := serial(); got != 2 {
		t.Fatalf("after rotation: serial %d, want 2", got)
	}

	// A broken certificate keeps the previous pair and warns.
	tlstest.WriteFile(t, dir, "cert.pem", []byte("not a certificate"))
	if got := serial(); got != 2 {
		t.Errorf("after a broken file: serial %d, want 2", got)
	}
	// So does a certificate that does not match the key (half a rotation).
	c3, k3 := ca.Issue(t, 3, false)
	tlstest.WriteFile(t, dir, "cert.pem", c3)
	if got := serial(); got != 2 {
		t.Errorf("after a mismatched pair: serial %d, want 2", got)
	}
	if !strings.Contains(logs.String(), "keeping the previous") {
		t.Errorf("no warning logged: %q", logs.String())
	}
	// The rest of the rotation completes it.
	tlstest.WriteFile(t, dir, "key.pem", k3)
	if got := serial(); got != 3 {
		t.Errorf("after completing the rotation: serial %d, want 3", got)
	}
}

func TestReloadInterval(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ca := tlstest.NewCA(t, "ca")
	c1, k1 := ca.Issue(t, 1, false)
	r, err := New(Options{CertFile: tlstest.WriteFile(t, dir, "cert.pem", c1), KeyFile: tlstest.WriteFile(t, dir, "key.pem", k1), CheckInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	c2, k2 := ca.Issue(t, 2, false)
	tlstest.WriteFile(t, dir, "cert.pem", c2)
	tlstest.WriteFile(t, dir, "key.pem", k2)
	if got := r.Certificate().Leaf.SerialNumber.Int64(); got != 1 {
		t.Errorf("files looked at before the interval elapsed: serial %d", got)
	}
	r.nextCheck.Store(0)
	if got := r.Certificate().Leaf.SerialNumber.Int64(); got != 2 {
		t.Errorf("after the interval: serial %d, want 2", got)
	}
}

func TestNewErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ca := tlstest.NewCA(t, "ca")
	c, k := ca.Issue(t, 1, false)
	cert, key := tlstest.WriteFile(t, dir, "cert.pem", c), tlstest.WriteFile(t, dir, "key.pem", k)
	junk := tlstest.WriteFile(t, dir, "junk.pem", []byte("junk"))
	for _, tc := range []struct {
		name string
		o    Options
	}{
		{"no key", Options{CertFile: cert}},
		{"missing file", Options{CertFile: cert, KeyFile: dir + "/absent.pem"}},
		{"broken certificate", Options{CertFile: junk, KeyFile: key}},
		{"broken client CA", Options{CertFile: cert, KeyFile: key, ClientCAFile: junk}},
		{"missing client CA", Options{CertFile: cert, KeyFile: key, ClientCAFile: dir + "/absent.pem"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if _, err := New(tc.o); err == nil {
				t.Error("New succeeded")
			}
		})
	}
}

// syncWriter is a log sink written by handshakes and read by the test.
type syncWriter struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncWriter) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
