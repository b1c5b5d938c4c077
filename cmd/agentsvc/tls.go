package main

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"

	"github.com/agentsvc/agentsvc/internal/tlsconfig"
)

// checkTransport checks the TLS flags, and that without TLS and without
// --auth jwt both listeners bind loopback addresses unless
// --insecure-listen says otherwise: without TLS and authentication, any
// host that can reach a non-loopback address could run agents and read
// sessions.
func checkTransport(o *options) error {
	switch {
	case (o.tlsCert == "") != (o.tlsKey == ""):
		return errors.New("--tls-cert and --tls-key go together")
	case o.clientCA != "" && o.tlsCert == "":
		return errors.New("--client-ca needs --tls-cert and --tls-key")
	case o.tlsCert != "" || o.insecureListen || o.authMode == "jwt":
		return nil
	}
	for _, l := range []struct{ flag, addr string }{{"--grpc-addr", o.grpcAddr}, {"--http-addr", o.httpAddr}} {
		if !isLoopbackAddr(l.addr) {
			return fmt.Errorf("%s %s is not a loopback address: serve TLS there (--tls-cert, --tls-key), authenticate callers (--auth jwt) or pass --insecure-listen to listen without either", l.flag, l.addr)
		}
	}
	return nil
}

// isLoopbackAddr reports whether a listen address host:port binds only
// loopback interfaces: localhost, 127.0.0.0/8 or ::1. An empty host binds
// every interface.
func isLoopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// newTLS loads the certificate files of o, or returns nil without TLS.
func newTLS(o *options, log *slog.Logger) (*tlsconfig.Reloader, error) {
	if o.tlsCert == "" {
		return nil, nil
	}
	r, err := tlsconfig.New(tlsconfig.Options{CertFile: o.tlsCert, KeyFile: o.tlsKey, ClientCAFile: o.clientCA, Logger: log})
	if err != nil {
		return nil, fmt.Errorf("--tls-cert: %w", err)
	}
	return r, nil
}

// grpcCreds is the gRPC server option for TLS with r, none when r is nil.
func grpcCreds(r *tlsconfig.Reloader) grpc.ServerOption {
	if r == nil {
		return grpc.EmptyServerOption{}
	}
	return grpc.Creds(credentials.NewTLS(r.Config("h2")))
}

// serveHTTP serves hs on lis, with TLS when hs has a TLS configuration.
func serveHTTP(hs *http.Server, lis net.Listener) error {
	if hs.TLSConfig != nil {
		return hs.ServeTLS(lis, "", "")
	}
	return hs.Serve(lis)
}
