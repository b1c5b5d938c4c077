package auth_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"errors"
	"log/slog"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/auth/authtest"
	"github.com/agentsvc/agentsvc/internal/tlsconfig/tlstest"
)

var quiet = slog.New(slog.DiscardHandler)

// newFileAuthenticator is a JWT authenticator over a JWKS file of keys.
func newFileAuthenticator(t *testing.T, configure func(*auth.Config), keys ...*authtest.Key) *auth.Authenticator {
	t.Helper()
	cfg := auth.Config{
		JWT: true, JWKSFile: tlstest.WriteFile(t, t.TempDir(), "jwks.json", authtest.JWKS(t, keys...)),
		Issuer: authtest.Issuer, Audience: authtest.Audience, AdminScope: "agentsvc.admin", Logger: quiet,
	}
	if configure != nil {
		configure(&cfg)
	}
	a, err := auth.New(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func reason(err error) string {
	var ae *auth.Error
	if errors.As(err, &ae) {
		return ae.Reason
	}
	return ""
}

// unsigned returns a token with header alg and the claims, and sig as its
// signature.
func unsigned(header, claims, sig string) string {
	enc := base64.RawURLEncoding.EncodeToString
	return enc([]byte(header)) + "." + enc([]byte(claims)) + "." + sig
}

func TestVerifyToken(t *testing.T) {
	t.Parallel()
	key, other := authtest.NewKey(t, "k1"), authtest.NewKey(t, "k1")
	a := newFileAuthenticator(t, nil, key)
	custom := newFileAuthenticator(t, func(c *auth.Config) { c.UserClaim = "email" }, key)
	hour := time.Now().Add(time.Hour).Unix()
	claims := `{"iss":"` + authtest.Issuer + `","aud":"` + authtest.Audience + `","sub":"alice","exp":` + big.NewInt(hour).String() + `}`
	for _, c := range []struct {
		name   string
		a      *auth.Authenticator
		header []string
		want   *auth.Identity
		reason string
	}{
		{"own token", a, []string{"Bearer " + key.Token(t, "alice", nil)}, &auth.Identity{Subject: "alice", Method: "jwt"}, ""},
		{"scheme in lower case", a, []string{"bearer " + key.Token(t, "alice", nil)}, &auth.Identity{Subject: "alice", Method: "jwt"}, ""},
		{"admin scope string", a, []string{"Bearer " + key.Token(t, "ops", map[string]any{"scope": "read agentsvc.admin"})}, &auth.Identity{Subject: "ops", Admin: true, Method: "jwt"}, ""},
		{"admin scp list", a, []string{"Bearer " + key.Token(t, "ops", map[string]any{"scp": []string{"agentsvc.admin"}})}, &auth.Identity{Subject: "ops", Admin: true, Method: "jwt"}, ""},
		{"admin scope list", a, []string{"Bearer " + key.Token(t, "ops", map[string]any{"scope": []string{"x", "agentsvc.admin"}})}, &auth.Identity{Subject: "ops", Admin: true, Method: "jwt"}, ""},
		{"other scope", a, []string{"Bearer " + key.Token(t, "ops", map[string]any{"scope": "agentsvc.administrator"})}, &auth.Identity{Subject: "ops", Method: "jwt"}, ""},
		{"user claim", custom, []string{"Bearer " + key.Token(t, "alice", map[string]any{"email": "a@x.test"})}, &auth.Identity{Subject: "a@x.test", Method: "jwt"}, ""},
		{"user claim missing", custom, []string{"Bearer " + key.Token(t, "alice", nil)}, nil, auth.ReasonTokenInvalid},
		{"within leeway", a, []string{"Bearer " + key.Token(t, "alice", map[string]any{"exp": time.Now().Add(-10 * time.Second).Unix()})}, &auth.Identity{Subject: "alice", Method: "jwt"}, ""},
		{"no token", a, nil, nil, auth.ReasonUnauthenticated},
		{"expired", a, []string{"Bearer " + key.Token(t, "alice", map[string]any{"exp": time.Now().Add(-time.Minute).Unix()})}, nil, auth.ReasonTokenExpired},
		{"no expiry", a, []string{"Bearer " + key.Token(t, "alice", map[string]any{"exp": nil})}, nil, auth.ReasonTokenInvalid},
		{"not yet valid", a, []string{"Bearer " + key.Token(t, "alice", map[string]any{"nbf": time.Now().Add(time.Hour).Unix()})}, nil, auth.ReasonTokenInvalid},
		{"wrong audience", a, []string{"Bearer " + key.Token(t, "alice", map[string]any{"aud": "other"})}, nil, auth.ReasonTokenInvalid},
		{"wrong issuer", a, []string{"Bearer " + key.Token(t, "alice", map[string]any{"iss": "https://evil.test"})}, nil, auth.ReasonTokenInvalid},
		{"no subject", a, []string{"Bearer " + key.Token(t, "", nil)}, nil, auth.ReasonTokenInvalid},
		{"bad signature", a, []string{"Bearer " + other.Token(t, "alice", nil)}, nil, auth.ReasonTokenInvalid},
		{"unknown key id", a, []string{"Bearer " + authtest.NewKey(t, "k9").Token(t, "alice", nil)}, nil, auth.ReasonTokenInvalid},
		{"alg none", a, []string{"Bearer " + unsigned(`{"alg":"none","kid":"k1"}`, claims, "")}, nil, auth.ReasonTokenInvalid},
		{"HMAC", a, []string{"Bearer " + unsigned(`{"alg":"HS256","kid":"k1"}`, claims, "c2ln")}, nil, auth.ReasonTokenInvalid},
		{"too large", a, []string{"Bearer " + key.Token(t, "alice", map[string]any{"pad": strings.Repeat("x", 8<<10)})}, nil, auth.ReasonTokenInvalid},
		{"not bearer", a, []string{"Basic YTpi"}, nil, auth.ReasonTokenInvalid},
		{"two tokens", a, []string{"Bearer " + key.Token(t, "alice", nil), "Bearer " + key.Token(t, "alice", nil)}, nil, auth.ReasonTokenInvalid},
		{"garbage", a, []string{"Bearer abc.def"}, nil, auth.ReasonTokenInvalid},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			id, err := c.a.Authenticate(t.Context(), c.header, nil)
			if got := reason(err); got != c.reason || (err != nil) != (c.reason != "") {
				t.Fatalf("err = %v (reason %q), want reason %q", err, got, c.reason)
			}
			if c.want != nil && *id != *c.want {
				t.Errorf("identity = %+v, want %+v", *id, *c.want)
			}
			if err != nil && strings.Contains(err.(*auth.Error).Message, "alice") {
				t.Errorf("client message %q tells too much", err.(*auth.Error).Message)
			}
		})
	}
}

// TestHMACWithPublicKey: a token MACed with the bytes of the public key the
// JWKS publishes (the classic algorithm confusion) is refused.
func TestHMACWithPublicKey(t *testing.T) {
	t.Parallel()
	key := authtest.NewKey(t, "k1")
	a := newFileAuthenticator(t, nil, key)
	jwk := key.JWK()
	pub, err := jwk.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.HS256, Key: jose.JSONWebKey{Key: pub, KeyID: "k1"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	obj, err := signer.Sign([]byte(`{"iss":"` + authtest.Issuer + `","aud":"` + authtest.Audience + `","sub":"alice","exp":9999999999}`))
	if err != nil {
		t.Fatal(err)
	}
	tok, _ := obj.CompactSerialize()
	if _, err := a.Authenticate(t.Context(), []string{"Bearer " + tok}, nil); reason(err) != auth.ReasonTokenInvalid {
		t.Fatalf("HS256 token: err = %v, want TOKEN_INVALID", err)
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	t.Parallel()
	file := tlstest.WriteFile(t, t.TempDir(), "jwks.json", authtest.JWKS(t, authtest.NewKey(t, "k1")))
	ok := auth.Config{JWT: true, JWKSFile: file, Issuer: "i", Audience: "a"}
	for _, c := range []struct {
		name      string
		configure func(*auth.Config)
		want      string
	}{
		{"nothing", func(c *auth.Config) { *c = auth.Config{} }, "nothing to authenticate"},
		{"no key source", func(c *auth.Config) { c.JWKSFile = "" }, "JWKS URL or a JWKS file"},
		{"both key sources", func(c *auth.Config) { c.JWKSURL = "https://x.test/jwks" }, "not both"},
		{"no issuer", func(c *auth.Config) { c.Issuer = "" }, "issuer"},
		{"no audience", func(c *auth.Config) { c.Audience = "" }, "audience"},
		{"bad cert identity", func(c *auth.Config) { c.CertIdentity = "dns" }, "certificate identity"},
		{"JWKS without JWT", func(c *auth.Config) { c.JWT = false; c.CertIdentity = auth.CertSPIFFE }, "need JWT"},
		{"URL not http", func(c *auth.Config) { c.JWKSFile, c.JWKSURL = "", "file:///etc/jwks" }, "http(s) URL"},
		{"missing file", func(c *auth.Config) { c.JWKSFile = filepath.Join(t.TempDir(), "none.json") }, "JWKS file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			cfg := ok
			c.configure(&cfg)
			_, err := auth.New(t.Context(), cfg)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want one saying %q", err, c.want)
			}
		})
	}
}

// jwksServer serves a JWKS that the test may change, counting fetches.
type jwksServer struct {
	mu      sync.Mutex
	body    []byte
	fetches atomic.Int64
	*httptest.Server
}

func newJWKSServer(t *testing.T, body []byte) *jwksServer {
	s := &jwksServer{body: body}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		s.fetches.Add(1)
		s.mu.Lock()
		defer s.mu.Unlock()
		_, _ = w.Write(s.body)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *jwksServer) set(body []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.body = body
}

// TestJWKSURLRotation: a token signed with a key added to the JWKS after
// start is accepted on its first call, which fetches the JWKS again; tokens
// of unknown key ids fetch it at most once per refetch interval.
func TestJWKSURLRotation(t *testing.T) {
	t.Parallel()
	old, rotated := authtest.NewKey(t, "old"), authtest.NewKey(t, "new")
	srv := newJWKSServer(t, authtest.JWKS(t, old))
	a, err := auth.New(t.Context(), auth.Config{JWT: true, JWKSURL: srv.URL, Issuer: authtest.Issuer, Audience: authtest.Audience,
		RefetchInterval: time.Hour, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Authenticate(t.Context(), []string{"Bearer " + old.Token(t, "alice", nil)}, nil); err != nil {
		t.Fatal(err)
	}
	if n := srv.fetches.Load(); n != 1 {
		t.Fatalf("fetches = %d after start and a known key, want 1", n)
	}
	srv.set(authtest.JWKS(t, old, rotated))
	id, err := a.Authenticate(t.Context(), []string{"Bearer " + rotated.Token(t, "alice", nil)}, nil)
	if err != nil || id.Subject != "alice" {
		t.Fatalf("token of the rotated key: %v, %v", id, err)
	}
	if n := srv.fetches.Load(); n != 2 {
		t.Fatalf("fetches = %d after the rotated key, want 2", n)
	}
	// A flood of made-up key ids fetches nothing more within the interval.
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tok := authtest.NewKey(t, "made-up-"+big.NewInt(int64(i)).String()).Token(t, "alice", nil)
			if _, err := a.Authenticate(context.WithoutCancel(t.Context()), []string{"Bearer " + tok}, nil); reason(err) != auth.ReasonTokenInvalid {
				t.Errorf("made-up key id: err = %v", err)
			}
		}()
	}
	wg.Wait()
	if n := srv.fetches.Load(); n != 2 {
		t.Fatalf("fetches = %d after a flood of unknown key ids, want still 2", n)
	}
	if _, err := a.Authenticate(t.Context(), []string{"Bearer " + old.Token(t, "alice", nil)}, nil); err != nil {
		t.Fatalf("known key after the flood: %v", err)
	}
}

// TestJWKSURLUnreachableAtStart: a JWKS server down at start does not stop
// the service; the keys are fetched when the first token needs them.
func TestJWKSURLUnreachableAtStart(t *testing.T) {
	t.Parallel()
	key := authtest.NewKey(t, "k1")
	var up atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if !up.Load() {
			http.Error(w, "starting", http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write(authtest.JWKS(t, key))
	}))
	t.Cleanup(srv.Close)
	a, err := auth.New(t.Context(), auth.Config{JWT: true, JWKSURL: srv.URL, Issuer: authtest.Issuer, Audience: authtest.Audience, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	up.Store(true)
	if _, err := a.Authenticate(t.Context(), []string{"Bearer " + key.Token(t, "alice", nil)}, nil); err != nil {
		t.Fatal(err)
	}
}

// TestJWKSFileReload: a key added to the JWKS file is used once the file
// changes.
func TestJWKSFileReload(t *testing.T) {
	t.Parallel()
	old, rotated := authtest.NewKey(t, "old"), authtest.NewKey(t, "new")
	dir := t.TempDir()
	file := tlstest.WriteFile(t, dir, "jwks.json", authtest.JWKS(t, old))
	a, err := auth.New(t.Context(), auth.Config{JWT: true, JWKSFile: file, Issuer: authtest.Issuer, Audience: authtest.Audience,
		FileCheckInterval: -1, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	tok := rotated.Token(t, "alice", nil)
	if _, err := a.Authenticate(t.Context(), []string{"Bearer " + tok}, nil); reason(err) != auth.ReasonTokenInvalid {
		t.Fatalf("before the change: err = %v, want TOKEN_INVALID", err)
	}
	tlstest.WriteFile(t, dir, "jwks.json", authtest.JWKS(t, rotated))
	if _, err := a.Authenticate(t.Context(), []string{"Bearer " + tok}, nil); err != nil {
		t.Fatalf("after the change: %v", err)
	}
	if _, err := a.Authenticate(t.Context(), []string{"Bearer " + old.Token(t, "alice", nil)}, nil); reason(err) != auth.ReasonTokenInvalid {
		t.Fatalf("removed key: err = %v, want TOKEN_INVALID", err)
	}
}

// clientCert is a certificate with common name cn and URI SANs uris, as a
// verified chain.
func clientCert(t *testing.T, cn string, uris ...string) [][]*x509.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(7), Subject: pkix.Name{CommonName: cn},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	for _, u := range uris {
		pu, err := url.Parse(u)
		if err != nil {
			t.Fatal(err)
		}
		tmpl.URIs = append(tmpl.URIs, pu)
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return [][]*x509.Certificate{{cert}}
}

func TestCertIdentity(t *testing.T) {
	t.Parallel()
	key := authtest.NewKey(t, "k1")
	spiffe, err := auth.New(t.Context(), auth.Config{CertIdentity: auth.CertSPIFFE,
		AdminIdentities: []string{"spiffe://prod.test/ns/ops/sa/admin"}, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	subject, err := auth.New(t.Context(), auth.Config{CertIdentity: auth.CertSubject, AdminIdentities: []string{"ops"}, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	both := newFileAuthenticator(t, func(c *auth.Config) { c.CertIdentity = auth.CertSubject }, key)
	for _, c := range []struct {
		name   string
		a      *auth.Authenticator
		header []string
		chains [][]*x509.Certificate
		want   *auth.Identity
		reason string
	}{
		{"spiffe", spiffe, nil, clientCert(t, "x", "spiffe://prod.test/ns/a/sa/b"), &auth.Identity{Subject: "spiffe://prod.test/ns/a/sa/b", Method: "cert"}, ""},
		{"spiffe admin", spiffe, nil, clientCert(t, "x", "spiffe://prod.test/ns/ops/sa/admin"), &auth.Identity{Subject: "spiffe://prod.test/ns/ops/sa/admin", Admin: true, Method: "cert"}, ""},
		{"no URI SAN", spiffe, nil, clientCert(t, "x"), nil, auth.ReasonTokenInvalid},
		{"two URI SANs", spiffe, nil, clientCert(t, "x", "spiffe://a.test/x", "spiffe://b.test/y"), nil, auth.ReasonTokenInvalid},
		{"not spiffe", spiffe, nil, clientCert(t, "x", "https://a.test/x"), nil, auth.ReasonTokenInvalid},
		{"spiffe with query", spiffe, nil, clientCert(t, "x", "spiffe://a.test/x?q=1"), nil, auth.ReasonTokenInvalid},
		{"no certificate", spiffe, nil, nil, nil, auth.ReasonUnauthenticated},
		{"token not accepted", spiffe, []string{"Bearer " + key.Token(t, "alice", nil)}, clientCert(t, "x", "spiffe://a.test/x"), &auth.Identity{Subject: "spiffe://a.test/x", Method: "cert"}, ""},
		{"subject", subject, nil, clientCert(t, "svc-a"), &auth.Identity{Subject: "svc-a", Method: "cert"}, ""},
		{"subject admin", subject, nil, clientCert(t, "ops"), &auth.Identity{Subject: "ops", Admin: true, Method: "cert"}, ""},
		{"empty subject", subject, nil, clientCert(t, ""), nil, auth.ReasonTokenInvalid},
		{"token wins", both, []string{"Bearer " + key.Token(t, "alice", nil)}, clientCert(t, "svc-a"), &auth.Identity{Subject: "alice", Method: "jwt"}, ""},
		{"bad token with a certificate", both, []string{"Bearer " + key.Token(t, "alice", map[string]any{"aud": "x"})}, clientCert(t, "svc-a"), nil, auth.ReasonTokenInvalid},
		{"certificate without token", both, nil, clientCert(t, "svc-a"), &auth.Identity{Subject: "svc-a", Method: "cert"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			id, err := c.a.Authenticate(t.Context(), c.header, c.chains)
			if got := reason(err); got != c.reason || (err != nil) != (c.reason != "") {
				t.Fatalf("err = %v (reason %q), want reason %q", err, got, c.reason)
			}
			if c.want != nil && *id != *c.want {
				t.Errorf("identity = %+v, want %+v", *id, *c.want)
			}
		})
	}
}

// BenchmarkAuthenticate is the cost of verifying an ES256 token whose key is
// cached, the per-call cost of JWT authentication.
func BenchmarkAuthenticate(b *testing.B) {
	key := authtest.NewKey(b, "k1")
	file := tlstest.WriteFile(b, b.TempDir(), "jwks.json", authtest.JWKS(b, key))
	a, err := auth.New(b.Context(), auth.Config{JWT: true, JWKSFile: file, Issuer: authtest.Issuer, Audience: authtest.Audience,
		AdminScope: "agentsvc.admin", Logger: quiet})
	if err != nil {
		b.Fatal(err)
	}
	header := []string{"Bearer " + key.Token(b, "alice", map[string]any{"scope": "read write"})}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := a.Authenticate(b.Context(), header, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestTokenCache: a verified token served from the cache still expires,
// and a key removed from the JWKS stops serving once the cache's minute
// has passed.
func TestTokenCache(t *testing.T) {
	t.Parallel()
	key := authtest.NewKey(t, "k1")
	dir := t.TempDir()
	file := tlstest.WriteFile(t, dir, "jwks.json", authtest.JWKS(t, key))
	var clock atomic.Int64
	clock.Store(time.Now().UnixNano())
	a, err := auth.New(t.Context(), auth.Config{JWT: true, JWKSFile: file, Issuer: authtest.Issuer, Audience: authtest.Audience,
		FileCheckInterval: -1, Logger: quiet, Now: func() time.Time { return time.Unix(0, clock.Load()) }})
	if err != nil {
		t.Fatal(err)
	}
	short := []string{"Bearer " + key.Token(t, "alice", map[string]any{"exp": time.Now().Add(5 * time.Second).Unix()})}
	long := []string{"Bearer " + key.Token(t, "alice", nil)}
	for _, h := range [][]string{short, long} {
		if _, err := a.Authenticate(t.Context(), h, nil); err != nil {
			t.Fatal(err)
		}
	}
	clock.Add(int64(45 * time.Second))
	if _, err := a.Authenticate(t.Context(), short, nil); reason(err) != auth.ReasonTokenExpired {
		t.Fatalf("cached token past its expiry: err = %v, want TOKEN_EXPIRED", err)
	}
	tlstest.WriteFile(t, dir, "jwks.json", authtest.JWKS(t, authtest.NewKey(t, "k2")))
	if _, err := a.Authenticate(t.Context(), long, nil); err != nil {
		t.Fatalf("within the cache's minute: %v", err)
	}
	clock.Add(int64(time.Minute))
	if _, err := a.Authenticate(t.Context(), long, nil); reason(err) != auth.ReasonTokenInvalid {
		t.Fatalf("removed key after the cache's minute: err = %v, want TOKEN_INVALID", err)
	}
}

// BenchmarkAuthenticateUncached is the cost of a full check of an ES256
// token (its key cached, the token not): the first call of a token.
func BenchmarkAuthenticateUncached(b *testing.B) {
	key := authtest.NewKey(b, "k1")
	file := tlstest.WriteFile(b, b.TempDir(), "jwks.json", authtest.JWKS(b, key))
	var clock atomic.Int64
	clock.Store(time.Now().UnixNano())
	a, err := auth.New(b.Context(), auth.Config{JWT: true, JWKSFile: file, Issuer: authtest.Issuer, Audience: authtest.Audience,
		Logger: quiet, Now: func() time.Time { return time.Unix(0, clock.Add(int64(2*time.Minute))) }})
	if err != nil {
		b.Fatal(err)
	}
	header := []string{"Bearer " + key.Token(b, "alice", map[string]any{"exp": time.Now().AddDate(100, 0, 0).Unix()})}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := a.Authenticate(b.Context(), header, nil); err != nil {
			b.Fatal(err)
		}
	}
}
