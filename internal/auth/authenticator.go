package auth

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"
)

// Defaults of [Config].
const (
	DefaultUserClaim     = "sub"
	DefaultLeeway        = 30 * time.Second
	DefaultMaxTokenBytes = 8 << 10
	DefaultFetchTimeout  = 10 * time.Second
	// DefaultRefetchInterval is the least time between two fetches of the
	// JWKS URL caused by tokens of unknown key ids.
	DefaultRefetchInterval = 10 * time.Second
	// DefaultMaxKeyAge is how long fetched keys serve before they are
	// fetched again in the background.
	DefaultMaxKeyAge = 15 * time.Minute
	// DefaultFileCheckInterval is how often the JWKS file is checked for
	// changes.
	DefaultFileCheckInterval = time.Second
)

// Ways a client certificate maps to an identity, for [Config.CertIdentity].
const (
	// CertSPIFFE maps the certificate's SPIFFE ID, its one URI SAN
	// spiffe://trust-domain/path, to the subject.
	CertSPIFFE = "spiffe"
	// CertSubject maps the certificate's subject common name to the
	// subject.
	CertSubject = "subject"
)

// Config configures an [Authenticator]. With neither JWT nor CertIdentity
// set there is nothing to authenticate: use no Authenticator at all.
type Config struct {
	// JWT turns on bearer tokens: signed JWTs verified against the keys of
	// JWKSURL or JWKSFile (exactly one), with their issuer, audience and
	// expiry checked.
	JWT bool
	// JWKSURL is fetched at start, then again for a token whose key id is
	// unknown (at most once per RefetchInterval) and in the background
	// once the keys are older than MaxKeyAge.
	JWKSURL string
	// JWKSFile is read at start and again when it changes.
	JWKSFile string
	// Issuer and Audience are the iss the tokens must carry and a value
	// their aud must hold. Both are required with JWT.
	Issuer, Audience string
	// UserClaim names the claim that carries the user id. Default "sub".
	UserClaim string
	// AdminScope is a scope (in the token's space-separated "scope"
	// string, or its "scp" or "scope" list) that lets the caller act for
	// every user and write app state. Empty: no token is admin.
	AdminScope string
	// CertIdentity maps a verified client certificate to an identity when
	// the call carries no token: [CertSPIFFE] or [CertSubject]. Empty: off.
	CertIdentity string
	// AdminIdentities are the certificate identities that are admin.
	AdminIdentities []string

	// HTTPClient fetches JWKSURL. Default: a client of its own.
	HTTPClient *http.Client
	// FetchTimeout bounds one fetch of JWKSURL. Default
	// [DefaultFetchTimeout].
	FetchTimeout time.Duration
	// RefetchInterval is the least time between two fetches of JWKSURL for
	// unknown key ids. Default [DefaultRefetchInterval].
	RefetchInterval time.Duration
	// MaxKeyAge is how long fetched keys serve before a background
	// refresh. Default [DefaultMaxKeyAge].
	MaxKeyAge time.Duration
	// FileCheckInterval is how often JWKSFile is checked for changes;
	// negative checks on every token. Default [DefaultFileCheckInterval].
	FileCheckInterval time.Duration
	// Leeway is the clock skew allowed on exp, nbf and iat. Default
	// [DefaultLeeway].
	Leeway time.Duration
	// MaxTokenBytes bounds a token. Default [DefaultMaxTokenBytes].
	MaxTokenBytes int
	Logger        *slog.Logger
	// Now is the clock tokens are checked against. Default time.Now.
	Now func() time.Time
}

// Authenticator establishes the identity of a call from its bearer token
// or its client certificate. A token, when the call carries one, decides:
// an invalid token is refused even with a good certificate. Without a
// token, the certificate's identity is used when CertIdentity is set. It
// is safe for concurrent use.
type Authenticator struct {
	cfg    Config
	keys   keySource
	admins map[string]bool
	log    *slog.Logger
	// verified caches the identities of verified tokens.
	verified tokenCache
}

// Bearer reports whether callers may present bearer tokens (JWTs).
func (a *Authenticator) Bearer() bool { return a.cfg.JWT }

// Certificates reports whether a verified client certificate names a
// caller without a token.
func (a *Authenticator) Certificates() bool { return a.cfg.CertIdentity != "" }

// New returns an authenticator for cfg. With a JWKS URL it fetches the keys
// once, bounded by the fetch timeout; a URL that does not answer yet is
// logged and fetched again when a token needs it.
func New(ctx context.Context, cfg Config) (*Authenticator, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	cfg.UserClaim = cmpOr(cfg.UserClaim, DefaultUserClaim)
	cfg.Leeway = cmpOr(cfg.Leeway, DefaultLeeway)
	cfg.MaxTokenBytes = cmpOr(cfg.MaxTokenBytes, DefaultMaxTokenBytes)
	cfg.FetchTimeout = cmpOr(cfg.FetchTimeout, DefaultFetchTimeout)
	cfg.RefetchInterval = cmpOr(cfg.RefetchInterval, DefaultRefetchInterval)
	cfg.MaxKeyAge = cmpOr(cfg.MaxKeyAge, DefaultMaxKeyAge)
	cfg.FileCheckInterval = cmpOr(cfg.FileCheckInterval, DefaultFileCheckInterval)
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	a := &Authenticator{cfg: cfg, log: cfg.Logger, admins: map[string]bool{}}
	if a.log == nil {
		a.log = slog.Default()
	}
	for _, id := range cfg.AdminIdentities {
		a.admins[id] = true
	}
	switch {
	case cfg.JWKSURL != "":
		client := cfg.HTTPClient
		if client == nil {
			client = &http.Client{Timeout: cfg.FetchTimeout}
		}
		r := newRemoteKeys(cfg.JWKSURL, client, cfg, a.log)
		if err := r.fetch(ctx); err != nil {
			a.log.WarnContext(ctx, "auth: JWKS not fetched; fetching again when a token needs it", "url", cfg.JWKSURL, "err", err)
		}
		a.keys = r
	case cfg.JWKSFile != "":
		f, err := newFileKeys(cfg.JWKSFile, cfg.FileCheckInterval, a.log)
		if err != nil {
			return nil, err
		}
		a.keys = f
	}
	return a, nil
}

func cmpOr[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// check rejects combinations that cannot work.
func (c *Config) check() error {
	switch c.CertIdentity {
	case "", CertSPIFFE, CertSubject:
	default:
		return fmt.Errorf("auth: certificate identity %q: use %s or %s", c.CertIdentity, CertSPIFFE, CertSubject)
	}
	if !c.JWT {
		if c.JWKSURL != "" || c.JWKSFile != "" || c.Issuer != "" || c.Audience != "" || c.AdminScope != "" {
			return errors.New("auth: JWKS, issuer, audience and admin scope need JWT authentication")
		}
		if c.CertIdentity == "" {
			return errors.New("auth: nothing to authenticate with: neither JWT nor a certificate identity")
		}
		return nil
	}
	switch {
	case c.JWKSURL == "" && c.JWKSFile == "":
		return errors.New("auth: JWT needs a JWKS URL or a JWKS file")
	case c.JWKSURL != "" && c.JWKSFile != "":
		return errors.New("auth: JWT takes a JWKS URL or a JWKS file, not both")
	case c.Issuer == "":
		return errors.New("auth: JWT needs the issuer tokens must carry")
	case c.Audience == "":
		return errors.New("auth: JWT needs the audience tokens must carry")
	}
	if c.JWKSURL != "" {
		if !strings.HasPrefix(c.JWKSURL, "https://") && !strings.HasPrefix(c.JWKSURL, "http://") {
			return fmt.Errorf("auth: JWKS URL %q: use an http(s) URL", c.JWKSURL)
		}
	}
	return nil
}

// Authenticate returns the identity of a call from the values of its
// authorization header (gRPC metadata or HTTP) and the verified chains of
// its client certificate. It fails with an [*Error].
func (a *Authenticator) Authenticate(ctx context.Context, authorization []string, chains [][]*x509.Certificate) (*Identity, error) {
	if len(authorization) > 0 && a.cfg.JWT {
		if len(authorization) > 1 {
			return nil, errInvalid("more than one authorization value")
		}
		token, ok := bearer(authorization[0])
		if !ok {
			return nil, errInvalid("authorization is not a bearer token")
		}
		return a.verifyToken(ctx, token)
	}
	if a.cfg.CertIdentity != "" && len(chains) > 0 && len(chains[0]) > 0 {
		return a.certIdentity(chains[0][0])
	}
	if len(authorization) > 0 {
		return nil, errInvalid("bearer tokens are not accepted")
	}
	return nil, &Error{Reason: ReasonUnauthenticated, Message: "authentication required"}
}

// bearer returns the token of an "authorization: Bearer <token>" value.
func bearer(v string) (string, bool) {
	scheme, token, ok := strings.Cut(strings.TrimSpace(v), " ")
	if !ok || !strings.EqualFold(scheme, "bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}

// Reasons of an [Error], sent to the client in its ErrorInfo.
const (
	// ReasonUnauthenticated: the call carries no credentials.
	ReasonUnauthenticated = "UNAUTHENTICATED"
	// ReasonTokenInvalid: the token, or the certificate's identity, is not
	// accepted (malformed, unknown key, bad signature, wrong issuer or
	// audience, no user).
	ReasonTokenInvalid = "TOKEN_INVALID"
	// ReasonTokenExpired: the token has expired.
	ReasonTokenExpired = "TOKEN_EXPIRED"
)

// Error is a refused authentication. Message is what the client sees; the
// wrapped error, for logs only, says why in detail.
type Error struct {
	Reason  string
	Message string
	Err     error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return "auth: " + e.Message + ": " + e.Err.Error()
	}
	return "auth: " + e.Message
}

func (e *Error) Unwrap() error { return e.Err }

func errInvalid(why string) *Error {
	return &Error{Reason: ReasonTokenInvalid, Message: "invalid credentials", Err: errors.New(why)}
}

// isAdminIdentity reports whether a certificate identity is admin.
func (a *Authenticator) isAdminIdentity(id string) bool { return a.admins[id] }

// hasScope reports whether the claims grant scope: in a space-separated
// "scope" string, or in a "scp" or "scope" list (or "scp" string).
func hasScope(claims map[string]any, scope string) bool {
	for _, name := range []string{"scope", "scp"} {
		switch v := claims[name].(type) {
		case string:
			if slices.Contains(strings.Fields(v), scope) {
				return true
			}
		case []any:
			for _, s := range v {
				if s == scope {
					return true
				}
			}
		}
	}
	return false
}
