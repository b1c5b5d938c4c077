package auth

import (
	"crypto/x509"
	"errors"
	"strings"
)

// certIdentity maps a verified client certificate to an identity: its
// SPIFFE ID or its subject common name, as Config.CertIdentity says.
func (a *Authenticator) certIdentity(cert *x509.Certificate) (*Identity, error) {
	var subject string
	switch a.cfg.CertIdentity {
	case CertSPIFFE:
		id, err := spiffeID(cert)
		if err != nil {
			return nil, &Error{Reason: ReasonTokenInvalid, Message: "invalid credentials", Err: err}
		}
		subject = id
	case CertSubject:
		subject = cert.Subject.CommonName
	}
	if subject == "" {
		return nil, errInvalid("client certificate names no identity")
	}
	return &Identity{Subject: subject, Admin: a.isAdminIdentity(subject), Method: "cert"}, nil
}

// spiffeID returns a certificate's SPIFFE ID: an X.509 SVID carries exactly
// one URI SAN, spiffe://trust-domain/path, without query, fragment, port
// or user info.
func spiffeID(cert *x509.Certificate) (string, error) {
	if len(cert.URIs) != 1 {
		return "", errors.New("client certificate has no single URI SAN")
	}
	u := cert.URIs[0]
	switch {
	case !strings.EqualFold(u.Scheme, "spiffe"):
		return "", errors.New("client certificate URI SAN is not a SPIFFE ID")
	case u.Host == "" || u.Port() != "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "":
		return "", errors.New("client certificate SPIFFE ID is malformed")
	}
	return "spiffe://" + strings.ToLower(u.Host) + u.EscapedPath(), nil
}
