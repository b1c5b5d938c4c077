package server

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"

	gwruntime "github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc/codes"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// corsMaxAge is how long, in seconds, a browser may keep a preflight's
// answer, as ADK's CORS middleware says.
const corsMaxAge = "600"

// originPolicy decides which browser origins may call the REST API and
// which Host names it answers to.
//
// Origins: a request that carries an Origin header (browsers send one with
// every cross-origin request and every POST) must come from a loopback
// origin or one of the allowed ones, else it is answered 403 before
// anything runs: a page elsewhere cannot make a browser run an agent or
// change a session (cross-site request forgery). Requests without Origin,
// from programs rather than browsers, are not concerned.
//
// Hosts: when the service listens on a loopback address, a Host header
// must name a loopback host, the listen address or an allowed origin's
// host, else the request is answered 403, so that a page whose name was
// rebound to 127.0.0.1 cannot reach the service (DNS rebinding). 403
// rather than 421: a 421 invites clients to retry on another connection,
// which cannot help. A service listening on another address, behind a mesh
// or a proxy, answers any Host.
type originPolicy struct {
	anyOrigin     bool
	origins       map[string]bool // normalised scheme://host[:port]
	hosts         map[string]bool // lower-case host names without port
	restrictHosts bool
}

func newOriginPolicy(allow []string, listenAddr string) (*originPolicy, error) {
	p := &originPolicy{origins: map[string]bool{}, hosts: map[string]bool{}}
	for _, o := range allow {
		o = strings.TrimSpace(o)
		switch o {
		case "":
			continue
		case "*":
			p.anyOrigin = true
			continue
		}
		u, err := url.Parse(o)
		if err != nil || u.Scheme == "" || u.Host == "" || u.Path != "" && u.Path != "/" || u.RawQuery != "" || u.User != nil {
			return nil, fmt.Errorf("allowed origin %q: want scheme://host[:port]", o)
		}
		p.origins[strings.ToLower(u.Scheme+"://"+u.Host)] = true
		p.hosts[strings.ToLower(u.Hostname())] = true
	}
	host := listenAddr
	if h, _, err := net.SplitHostPort(listenAddr); err == nil {
		host = h
	}
	p.restrictHosts = listenAddr == "" || isLoopbackHost(host)
	if host != "" {
		p.hosts[strings.ToLower(host)] = true
	}
	return p, nil
}

// isLoopbackHost reports whether host (without port or brackets) names
// the local machine.
func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// checkOrigin admits a loopback origin (http or https, any port), an
// allowed one, or any with "*".
func (p *originPolicy) checkOrigin(origin string) error {
	if p.anyOrigin || p.origins[strings.ToLower(origin)] {
		return nil
	}
	if u, err := url.Parse(origin); err == nil && (u.Scheme == "http" || u.Scheme == "https") &&
		u.Path == "" && isLoopbackHost(u.Hostname()) {
		return nil
	}
	return forbidden(v1.ErrorReason_ORIGIN_NOT_ALLOWED.String(), fmt.Sprintf("origin %s is not allowed", echo(origin)))
}

// checkHost admits any Host when hosts are not restricted, else a loopback
// name, the listen host or an allowed origin's host.
func (p *originPolicy) checkHost(r *http.Request) error {
	if !p.restrictHosts || r.Host == "" {
		return nil
	}
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	} else {
		host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	}
	if isLoopbackHost(host) || p.hosts[strings.ToLower(host)] {
		return nil
	}
	return forbidden(v1.ErrorReason_HOST_NOT_ALLOWED.String(), fmt.Sprintf("host %s is not allowed", echo(r.Host)))
}

func forbidden(reason, msg string) error {
	return &gwruntime.HTTPStatusError{HTTPStatus: http.StatusForbidden, Err: statusError(codes.PermissionDenied, reason, msg)}
}

// isPreflight reports whether r is a CORS preflight request.
func isPreflight(r *http.Request) bool {
	return r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != ""
}

// preflight answers a CORS preflight from an allowed origin as ADK's CORS
// middleware does: every method, the requested headers, credentials.
func (p *originPolicy) preflight(w http.ResponseWriter, r *http.Request, origin string) {
	h := w.Header()
	p.corsHeaders(w, origin)
	h.Set("Access-Control-Allow-Methods", "DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT")
	if req := r.Header.Get("Access-Control-Request-Headers"); req != "" {
		h.Set("Access-Control-Allow-Headers", req)
	}
	h.Set("Access-Control-Max-Age", corsMaxAge)
	w.WriteHeader(http.StatusOK)
}

// corsHeaders lets an allowed origin read the answer.
func (p *originPolicy) corsHeaders(w http.ResponseWriter, origin string) {
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", origin)
	h.Set("Access-Control-Allow-Credentials", "true")
	h.Add("Vary", "Origin")
}
