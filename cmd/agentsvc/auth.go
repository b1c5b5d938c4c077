package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/agentsvc/agentsvc/internal/auth"
)

// checkAuth checks the authentication flags: a mode it knows, JWT settings
// only with --auth jwt and then exactly one key source with the issuer and
// audience, certificate identities only with client certificates.
func checkAuth(o *options) error {
	jwtFlags := o.jwksURL != "" || o.jwksFile != "" || o.jwtIssuer != "" || o.jwtAudience != "" || o.adminScope != ""
	switch o.authMode {
	case "none":
		if jwtFlags {
			return errors.New("--jwks-url, --jwks-file, --jwt-issuer, --jwt-audience and --admin-scope need --auth jwt")
		}
	case "jwt":
		switch {
		case o.jwksURL == "" && o.jwksFile == "":
			return errors.New("--auth jwt needs --jwks-url or --jwks-file")
		case o.jwksURL != "" && o.jwksFile != "":
			return errors.New("--jwks-url and --jwks-file exclude each other")
		case o.jwtIssuer == "":
			return errors.New("--auth jwt needs --jwt-issuer")
		case o.jwtAudience == "":
			return errors.New("--auth jwt needs --jwt-audience")
		case o.userClaim == "":
			return errors.New("--user-claim must not be empty")
		}
	default:
		return fmt.Errorf("--auth %q: use none or jwt", o.authMode)
	}
	switch o.certIdentity {
	case "":
		if o.adminIdentities != "" {
			return errors.New("--admin-identities needs --cert-identity")
		}
	case auth.CertSPIFFE, auth.CertSubject:
		if o.clientCA == "" {
			return fmt.Errorf("--cert-identity %s needs client certificates: set --client-ca", o.certIdentity)
		}
	default:
		return fmt.Errorf("--cert-identity %q: use spiffe or subject", o.certIdentity)
	}
	return nil
}

// newAuthenticator returns the authenticator the flags of o configure, or
// nil when they turn authentication off.
func newAuthenticator(ctx context.Context, o *options, log *slog.Logger) (*auth.Authenticator, error) {
	if o.authMode != "jwt" && o.certIdentity == "" {
		return nil, nil
	}
	a, err := auth.New(ctx, auth.Config{
		JWT:     o.authMode == "jwt",
		JWKSURL: o.jwksURL, JWKSFile: o.jwksFile,
		Issuer: o.jwtIssuer, Audience: o.jwtAudience,
		UserClaim: o.userClaim, AdminScope: o.adminScope,
		CertIdentity: o.certIdentity, AdminIdentities: splitList(o.adminIdentities),
		Logger: log,
	})
	if err != nil {
		return nil, fmt.Errorf("--auth: %w", err)
	}
	log.Info("authentication on", "jwt", o.authMode == "jwt", "cert_identity", o.certIdentity)
	return a, nil
}
