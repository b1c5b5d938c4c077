package server

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func TestRecoveryTurnsPanicsIntoInternal(t *testing.T) {
	t.Parallel()
	r := recoverer{log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	tests := []struct {
		name string
		call func() error
	}{
		{"unary", func() error {
			_, err := r.unary(t.Context(), nil, &grpc.UnaryServerInfo{FullMethod: "/x/Unary"},
				func(context.Context, any) (any, error) { panic("boom") })
			return err
		}},
		{"stream", func() error {
			return r.stream(nil, fakeServerStream{}, &grpc.StreamServerInfo{FullMethod: "/x/Stream"},
				func(any, grpc.ServerStream) error { panic("boom") })
		}},
		{"no panic", func() error {
			_, err := r.unary(t.Context(), nil, &grpc.UnaryServerInfo{FullMethod: "/x/Unary"},
				func(context.Context, any) (any, error) { return nil, status.Error(codes.NotFound, "x") })
			if status.Code(err) != codes.NotFound {
				t.Errorf("a handler's own error became %v", err)
			}
			return status.Error(codes.Internal, "")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if err := tt.call(); status.Code(err) != codes.Internal {
				t.Errorf("err = %v, want INTERNAL", err)
			}
		})
	}
}

type fakeServerStream struct{ grpc.ServerStream }

func (fakeServerStream) Context() context.Context { return context.Background() }
