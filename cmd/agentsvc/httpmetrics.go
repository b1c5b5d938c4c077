package main

import (
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/felixge/httpsnoop"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/semconv/v1.43.0/httpconv"
)

// httpMetrics records the HTTP server metrics of the REST listener, the
// instruments, scope and attributes otelhttp records, without the span
// work otelhttp does for each request: the REST handler of a process that
// exports no traces, where that work would be thrown away.
type httpMetrics struct {
	next     http.Handler
	reqSize  httpconv.ServerRequestBodySize
	respSize httpconv.ServerResponseBodySize
	duration httpconv.ServerRequestDuration
	sets     attrSets[metricKey]
}

// metricKey is what the attributes of one request's measurements depend on.
type metricKey struct {
	method, host, proto string
	port, status        int
	tls                 bool
}

// newHTTPMetrics wraps next in the metrics of meters, as otelhttp names
// them.
func newHTTPMetrics(next http.Handler, meters metric.MeterProvider) (*httpMetrics, error) {
	meter := meters.Meter(otelhttp.ScopeName, metric.WithInstrumentationVersion(otelhttp.Version))
	h := &httpMetrics{next: next}
	var err error
	if h.reqSize, err = httpconv.NewServerRequestBodySize(meter); err != nil {
		return nil, err
	}
	if h.respSize, err = httpconv.NewServerResponseBodySize(meter); err != nil {
		return nil, err
	}
	// otelhttp's bucket boundaries, in seconds.
	h.duration, err = httpconv.NewServerRequestDuration(meter, metric.WithExplicitBucketBoundaries(
		0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10))
	if err != nil {
		return nil, err
	}
	return h, nil
}

func (h *httpMetrics) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/health" || r.URL.Path == "/metrics" {
		h.next.ServeHTTP(w, r)
		return
	}
	start := time.Now()
	var read countingBody
	if r.Body != nil && r.Body != http.NoBody {
		body := r.Body
		read.ReadCloser = body
		r.Body = &read
		// net/http looks at the body it gave after the handler returns.
		defer func() { r.Body = body }()
	}
	status, written := http.StatusOK, int64(0)
	headerSent := false
	w = httpsnoop.Wrap(w, httpsnoop.Hooks{
		WriteHeader: func(next httpsnoop.WriteHeaderFunc) httpsnoop.WriteHeaderFunc {
			return func(code int) {
				// The first final status counts, as otelhttp counts it.
				if !headerSent && (code < 100 || code >= 200 || code == http.StatusSwitchingProtocols) {
					status, headerSent = code, true
				}
				next(code)
			}
		},
		Write: func(next httpsnoop.WriteFunc) httpsnoop.WriteFunc {
			return func(b []byte) (int, error) {
				headerSent = true
				n, err := next(b)
				written += int64(n)
				return n, err
			}
		},
		Flush: func(next httpsnoop.FlushFunc) httpsnoop.FlushFunc {
			return func() {
				headerSent = true
				next()
			}
		},
		ReadFrom: func(next httpsnoop.ReadFromFunc) httpsnoop.ReadFromFunc {
			return func(src io.Reader) (int64, error) {
				headerSent = true
				n, err := next(src)
				written += n
				return n, err
			}
		},
	})
	h.next.ServeHTTP(w, r)
	set := h.set(r, status)
	ctx := r.Context()
	h.reqSize.Inst().Record(ctx, read.n, set)
	h.respSize.Inst().Record(ctx, written, set)
	h.duration.Inst().Record(ctx, float64(time.Since(start))/float64(time.Second), set)
}

// set returns the attribute set of a request answered with status.
func (h *httpMetrics) set(r *http.Request, status int) metric.MeasurementOption {
	host, port := splitHostPort(r.Host)
	return h.sets.get(metricKey{method: r.Method, host: host, proto: r.Proto, port: port, status: status,
		tls: r.TLS != nil}, metricKey.attributes)
}

// attributes are the metric attributes of k, as otelhttp's semantic
// conventions give them.
func (k metricKey) attributes() []attribute.KeyValue {
	method := strings.ToUpper(k.method)
	switch method {
	case http.MethodConnect, http.MethodDelete, http.MethodGet, http.MethodHead, http.MethodOptions,
		http.MethodPatch, http.MethodPost, http.MethodPut, http.MethodTrace:
	default:
		method = "_OTHER"
	}
	scheme, defaultPort := "http", 80
	if k.tls {
		scheme, defaultPort = "https", 443
	}
	attrs := []attribute.KeyValue{semconv.HTTPRequestMethodKey.String(method), semconv.URLScheme(scheme),
		semconv.ServerAddress(k.host)}
	if k.port > 0 && k.port != defaultPort {
		attrs = append(attrs, semconv.ServerPort(k.port))
	}
	name, version, _ := strings.Cut(k.proto, "/")
	switch name {
	case "HTTP":
		name = "http"
	case "QUIC":
		name = "quic"
	case "SPDY":
		name = "spdy"
	default:
		name = strings.ToLower(name)
	}
	if name != "" {
		attrs = append(attrs, semconv.NetworkProtocolName(name))
	}
	if version != "" {
		attrs = append(attrs, semconv.NetworkProtocolVersion(version))
	}
	if k.status > 0 {
		attrs = append(attrs, semconv.HTTPResponseStatusCode(k.status))
	}
	return attrs
}

// splitHostPort splits a Host header into its host and port, -1 when it
// has none or an invalid one.
func splitHostPort(hostport string) (string, int) {
	if strings.HasPrefix(hostport, "[") {
		end := strings.LastIndexByte(hostport, ']')
		if end < 0 {
			return "", -1
		}
		if !strings.Contains(hostport[end:], ":") {
			return hostport[1:end], -1
		}
	} else if !strings.Contains(hostport, ":") {
		return hostport, -1
	}
	host, p, err := net.SplitHostPort(hostport)
	if err != nil {
		return host, -1
	}
	port, err := strconv.ParseUint(p, 10, 16)
	if err != nil {
		return host, -1
	}
	return host, int(port)
}

// countingBody counts the bytes read from a request body.
type countingBody struct {
	io.ReadCloser
	n int64
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n += int64(n)
	return n, err
}
