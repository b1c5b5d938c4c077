// Package authtest makes throwaway signing keys, their JWKS and tokens for
// tests of authenticated services.
package authtest

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"maps"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// Issuer and Audience are the iss and aud of the tokens [Key.Token] makes
// unless the claims say otherwise.
const (
	Issuer   = "https://issuer.test"
	Audience = "agentsvc"
)

// Key is an ES256 signing key with a key id.
type Key struct {
	ID      string
	private crypto.Signer
}

// NewKey returns a new ES256 key with key id kid.
func NewKey(t testing.TB, kid string) *Key {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return &Key{ID: kid, private: k}
}

// JWK is the key's public half as a JWK.
func (k *Key) JWK() jose.JSONWebKey {
	return jose.JSONWebKey{Key: k.private.Public(), KeyID: k.ID, Algorithm: string(jose.ES256), Use: "sig"}
}

// JWKS returns a JWKS document of the public halves of keys.
func JWKS(t testing.TB, keys ...*Key) []byte {
	t.Helper()
	set := jose.JSONWebKeySet{}
	for _, k := range keys {
		set.Keys = append(set.Keys, k.JWK())
	}
	b, err := json.Marshal(set)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Token returns a token signed by k for subject sub, valid for an hour,
// issued by [Issuer] for [Audience]; claims are added to (or replace) those.
func (k *Key) Token(t testing.TB, sub string, claims map[string]any) string {
	t.Helper()
	now := time.Now()
	all := map[string]any{
		"iss": Issuer, "aud": Audience, "sub": sub,
		"iat": now.Unix(), "nbf": now.Unix(), "exp": now.Add(time.Hour).Unix(),
	}
	maps.Copy(all, claims)
	for name, v := range all {
		if v == nil {
			delete(all, name)
		}
	}
	return k.Sign(t, jose.ES256, all)
}

// Sign signs claims with k and algorithm alg (which must suit an ECDSA
// P-256 key), the key id in the header.
func (k *Key) Sign(t testing.TB, alg jose.SignatureAlgorithm, claims any) string {
	t.Helper()
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: jose.JSONWebKey{Key: k.private, KeyID: k.ID}},
		(&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		t.Fatal(err)
	}
	tok, err := jwt.Signed(signer).Claims(claims).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}
