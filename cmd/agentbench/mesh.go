package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	collectormetrics "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/grpc"
)

// The issuer and audience of the tokens --write-jwt makes.
const (
	benchIssuer   = "agentbench"
	benchAudience = "agentsvc"
)

// writeJWT writes dir/jwks.json, the public half of a new ES256 key, and
// dir/token, a token of that key for user, valid for a day, for a server
// started with --auth jwt --jwks-file dir/jwks.json --jwt-issuer
// agentbench --jwt-audience agentsvc.
func writeJWT(dir, user string) error {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	const kid = "agentbench"
	set, err := json.Marshal(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{
		{Key: key.Public(), KeyID: kid, Algorithm: string(jose.ES256), Use: "sig"},
	}})
	if err != nil {
		return err
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: jose.JSONWebKey{Key: key, KeyID: kid}},
		(&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		return err
	}
	now := time.Now()
	token, err := jwt.Signed(signer).Claims(jwt.Claims{
		Issuer: benchIssuer, Audience: jwt.Audience{benchAudience}, Subject: user,
		IssuedAt: jwt.NewNumericDate(now), NotBefore: jwt.NewNumericDate(now), Expiry: jwt.NewNumericDate(now.Add(24 * time.Hour)),
	}).Serialize()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "jwks.json"), set, 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "token"), []byte(token), 0o600)
}

// otlpSink is an OTLP/gRPC receiver that counts what it is sent and keeps
// nothing, for load runs with traces and metrics exported.
type otlpSink struct {
	collectortrace.UnimplementedTraceServiceServer
	spans, metrics atomic.Int64
}

// Export implements the collector's TraceService.
func (s *otlpSink) Export(_ context.Context, req *collectortrace.ExportTraceServiceRequest) (*collectortrace.ExportTraceServiceResponse, error) {
	for _, rs := range req.GetResourceSpans() {
		for _, ss := range rs.GetScopeSpans() {
			s.spans.Add(int64(len(ss.GetSpans())))
		}
	}
	return &collectortrace.ExportTraceServiceResponse{}, nil
}

// sinkMetrics is the sink's MetricsService.
type sinkMetrics struct {
	collectormetrics.UnimplementedMetricsServiceServer
	s *otlpSink
}

// Export implements the collector's MetricsService.
func (m sinkMetrics) Export(_ context.Context, req *collectormetrics.ExportMetricsServiceRequest) (*collectormetrics.ExportMetricsServiceResponse, error) {
	for _, rm := range req.GetResourceMetrics() {
		for _, sm := range rm.GetScopeMetrics() {
			m.s.metrics.Add(int64(len(sm.GetMetrics())))
		}
	}
	return &collectormetrics.ExportMetricsServiceResponse{}, nil
}

// serveOTLPSink receives OTLP over gRPC on addr until ctx ends, then says
// how many spans and metric points it was sent.
func serveOTLPSink(ctx context.Context, addr string, report func(spans, metrics int64)) error {
	lis, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	sink := &otlpSink{}
	gs := grpc.NewServer()
	collectortrace.RegisterTraceServiceServer(gs, sink)
	collectormetrics.RegisterMetricsServiceServer(gs, sinkMetrics{s: sink})
	go func() {
		<-ctx.Done()
		gs.GracefulStop()
	}()
	if err := gs.Serve(lis); err != nil {
		return fmt.Errorf("otlp sink: %w", err)
	}
	report(sink.spans.Load(), sink.metrics.Load())
	return nil
}
