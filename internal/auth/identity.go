// Package auth establishes who calls the service: a verified identity taken
// from a bearer token or a client certificate, carried in the request's
// context to the handlers that authorise it and to the audit log.
package auth

import "context"

// Identity is a verified caller.
type Identity struct {
	// Subject is the user id the caller may act for: the token's subject
	// (or its configured user claim), or the name mapped from a client
	// certificate.
	Subject string
	// Admin reports whether the caller may act for any user and write
	// app-wide state.
	Admin bool
	// Method says how the identity was established: "jwt" or "cert".
	Method string
}

type identityKey struct{}

// WithIdentity returns a copy of ctx that carries id.
func WithIdentity(ctx context.Context, id *Identity) context.Context {
	return context.WithValue(ctx, identityKey{}, id)
}

// FromContext returns the identity ctx carries, if any. Without
// authentication configured there is none and every caller is anonymous.
func FromContext(ctx context.Context) (*Identity, bool) {
	id, ok := ctx.Value(identityKey{}).(*Identity)
	return id, ok && id != nil
}
