package auth

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// signingAlgorithms are the algorithms a token may be signed with: public-key
// ones only, so that neither "none" nor an HMAC keyed with a public key is
// ever accepted.
var signingAlgorithms = []jose.SignatureAlgorithm{
	jose.RS256, jose.RS384, jose.RS512,
	jose.PS256, jose.PS384, jose.PS512,
	jose.ES256, jose.ES384, jose.ES512,
	jose.EdDSA,
}

// verifyToken checks a bearer token's size, signature, issuer, audience and
// times, and returns the identity it names. A token verified in the last
// minute, and not expired since, is answered from a cache.
func (a *Authenticator) verifyToken(ctx context.Context, raw string) (*Identity, error) {
	if len(raw) > a.cfg.MaxTokenBytes {
		return nil, errInvalid(fmt.Sprintf("token longer than %d bytes", a.cfg.MaxTokenBytes))
	}
	sum := sha256.Sum256([]byte(raw))
	now := a.cfg.Now()
	if id, ok := a.verified.get(sum, now); ok {
		return id, nil
	}
	tok, err := jwt.ParseSigned(raw, signingAlgorithms)
	if err != nil {
		return nil, &Error{Reason: ReasonTokenInvalid, Message: "invalid credentials", Err: err}
	}
	if len(tok.Headers) != 1 {
		return nil, errInvalid("token has more than one signature")
	}
	h := tok.Headers[0]
	key, err := a.keys.key(ctx, h.KeyID, h.Algorithm)
	if err != nil {
		return nil, &Error{Reason: ReasonTokenInvalid, Message: "invalid credentials", Err: err}
	}
	var std jwt.Claims
	var claims map[string]any
	if err := tok.Claims(key.Key, &std, &claims); err != nil {
		return nil, &Error{Reason: ReasonTokenInvalid, Message: "invalid credentials", Err: err}
	}
	if std.Expiry == nil {
		return nil, errInvalid("token has no expiry")
	}
	err = std.ValidateWithLeeway(jwt.Expected{
		Issuer:      a.cfg.Issuer,
		AnyAudience: jwt.Audience{a.cfg.Audience},
		Time:        now,
	}, a.cfg.Leeway)
	if errors.Is(err, jwt.ErrExpired) {
		return nil, &Error{Reason: ReasonTokenExpired, Message: "token expired", Err: err}
	}
	if err != nil {
		return nil, &Error{Reason: ReasonTokenInvalid, Message: "invalid credentials", Err: err}
	}
	subject := std.Subject
	if a.cfg.UserClaim != DefaultUserClaim {
		subject, _ = claims[a.cfg.UserClaim].(string)
	}
	if subject == "" {
		return nil, errInvalid("token names no user in claim " + a.cfg.UserClaim)
	}
	admin := a.cfg.AdminScope != "" && hasScope(claims, a.cfg.AdminScope)
	id := &Identity{Subject: subject, Admin: admin, Method: "jwt"}
	// Served from the cache until it expires, without the leeway.
	a.verified.put(sum, id, now, std.Expiry.Time())
	return id, nil
}
