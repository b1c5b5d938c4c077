package a2a

import (
	"errors"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/a2a"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/protoadapt"
	"google.golang.org/protobuf/types/known/durationpb"
)

func statusWith(t *testing.T, code codes.Code, msg string, details ...protoadapt.MessageV1) error {
	t.Helper()
	st, err := status.New(code, msg).WithDetails(details...)
	if err != nil {
		t.Fatal(err)
	}
	return st.Err()
}

// TestStartError: a refusal a retry may get past is a server error (-32000)
// whose text leads with the reason; invalid input is invalid params; the
// rest is an internal error.
func TestStartError(t *testing.T) {
	t.Parallel()
	info := func(reason string) *errdetails.ErrorInfo {
		return &errdetails.ErrorInfo{Reason: reason, Domain: "agentsvc"}
	}
	retry := &errdetails.RetryInfo{RetryDelay: durationpb.New(time.Second)}
	tests := []struct {
		name     string
		err      error
		wantKind error
		wantText string
	}{
		{"busy", statusWith(t, codes.Aborted, "session is busy: another invocation is running on it", info("SESSION_BUSY")),
			a2a.ErrServerError, "SESSION_BUSY: session is busy: another invocation is running on it"},
		{"store unavailable", statusWith(t, codes.Unavailable, "session store unavailable", info("SESSION_STORE_UNAVAILABLE")),
			a2a.ErrServerError, "SESSION_STORE_UNAVAILABLE: session store unavailable"},
		{"rate limited", statusWith(t, codes.ResourceExhausted, "too many requests", info("USER_RATE_LIMITED"), retry),
			a2a.ErrServerError, "USER_RATE_LIMITED: too many requests"},
		{"too large", statusWith(t, codes.ResourceExhausted, "session is too large", info("SESSION_TOO_LARGE")),
			a2a.ErrInternalError, "session is too large"},
		{"invalid", statusWith(t, codes.InvalidArgument, "bad id", info("INVALID_ARGUMENT")),
			a2a.ErrInvalidParams, "bad id"},
		{"not found", statusWith(t, codes.NotFound, "App not found: x", info("APP_NOT_FOUND")),
			a2a.ErrInvalidParams, "App not found: x"},
		{"internal", statusWith(t, codes.Internal, "internal error", info("INTERNAL")),
			a2a.ErrInternalError, "internal error"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := startError(tc.err)
			if !errors.Is(err, tc.wantKind) {
				t.Errorf("startError = %v, want it to be %v", err, tc.wantKind)
			}
			if err.Error() != tc.wantText {
				t.Errorf("text = %q, want %q", err.Error(), tc.wantText)
			}
		})
	}
	plain := errors.New("not a status")
	if err := startError(plain); err != plain {
		t.Errorf("startError of a plain error = %v, want it unchanged", err)
	}
}
