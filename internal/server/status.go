package server

import (
	"context"
	"errors"
	"log/slog"
	"strings"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/artifacts"
	"github.com/agentsvc/agentsvc/internal/memory"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// errorDomain is the ErrorInfo domain of every status the service returns.
const errorDomain = "agentsvc"

var runtimeCodes = map[runtime.Code]codes.Code{
	runtime.CodeInternal:           codes.Internal,
	runtime.CodeInvalidArgument:    codes.InvalidArgument,
	runtime.CodeNotFound:           codes.NotFound,
	runtime.CodeAlreadyExists:      codes.AlreadyExists,
	runtime.CodeFailedPrecondition: codes.FailedPrecondition,
	runtime.CodeResourceExhausted:  codes.ResourceExhausted,
	runtime.CodeAborted:            codes.Aborted,
	runtime.CodeUnavailable:        codes.Unavailable,
	runtime.CodeDeadlineExceeded:   codes.DeadlineExceeded,
	runtime.CodeUnknown:            codes.Unknown,
}

// toStatus maps an error to the gRPC status the client sees, with an
// ErrorInfo detail. It is the one place where errors become codes; internal
// details are logged, never sent.
func toStatus(ctx context.Context, log *slog.Logger, err error) error {
	if err == nil {
		return nil
	}
	if _, ok := status.FromError(err); ok {
		return err
	}
	if merr := (*models.Error)(nil); errors.As(err, &merr) {
		log.WarnContext(ctx, "model call failed", "err", err)
		return modelStatusError(merr)
	}
	code, reason, msg := classify(err)
	if code == codes.Internal {
		log.ErrorContext(ctx, "request failed", "err", err)
	}
	return statusError(code, reason, msg)
}

// statusError is a status with its ErrorInfo detail. Invalid UTF-8 in msg
// (an echo of a malformed input) is replaced, so that the status can be
// marshalled for REST.
func statusError(code codes.Code, reason, msg string) error {
	st := status.New(code, strings.ToValidUTF8(msg, "\uFFFD"))
	if withInfo, err := st.WithDetails(&errdetails.ErrorInfo{Reason: reason, Domain: errorDomain}); err == nil {
		st = withInfo
	}
	return st.Err()
}

func classify(err error) (codes.Code, string, string) {
	var rerr *runtime.Error
	var merr *models.Error
	var aerr *artifacts.InputError
	switch {
	case errors.As(err, &rerr):
		return runtimeCodes[rerr.Code], rerr.Reason, rerr.Message
	case errors.Is(err, sessions.ErrNotFound):
		return codes.NotFound, v1.ErrorReason_SESSION_NOT_FOUND.String(), "Session not found"
	case errors.Is(err, sessions.ErrAlreadyExists):
		return codes.AlreadyExists, v1.ErrorReason_SESSION_EXISTS.String(), "Session already exists"
	case errors.Is(err, sessions.ErrBusy):
		return codes.Aborted, v1.ErrorReason_SESSION_BUSY.String(), "session is busy: another invocation is running on it"
	case errors.Is(err, sessions.ErrStale):
		return codes.Aborted, v1.ErrorReason_SESSION_STALE.String(), "session was modified concurrently; retry"
	case errors.Is(err, sessions.ErrTooLarge):
		return codes.ResourceExhausted, v1.ErrorReason_SESSION_TOO_LARGE.String(), "session is too large: it has reached its limit of events or bytes; start a new session"
	case errors.Is(err, sessions.ErrUnavailable):
		return codes.Unavailable, v1.ErrorReason_SESSION_STORE_UNAVAILABLE.String(), "session store unavailable"
	case errors.As(err, &aerr):
		return codes.InvalidArgument, v1.ErrorReason_ARTIFACT_INVALID.String(), aerr.Message
	case errors.Is(err, artifacts.ErrNotFound):
		return codes.NotFound, v1.ErrorReason_ARTIFACT_NOT_FOUND.String(), "Artifact not found"
	case errors.Is(err, artifacts.ErrTooLarge):
		return codes.ResourceExhausted, v1.ErrorReason_ARTIFACT_TOO_LARGE.String(), "the artifact is larger than the store accepts"
	case errors.Is(err, artifacts.ErrConflict):
		return codes.Aborted, v1.ErrorReason_ARTIFACT_CONFLICT.String(), "concurrent saves of the artifact kept taking its next version; retry"
	case errors.Is(err, memory.ErrTooLarge):
		return codes.ResourceExhausted, v1.ErrorReason_MEMORY_FULL.String(), "the user's memory is full"
	case errors.Is(err, memory.ErrQueryTooLarge):
		return codes.InvalidArgument, v1.ErrorReason_MEMORY_QUERY_TOO_LARGE.String(), "the memory query is too long"
	case errors.Is(err, memory.ErrUnavailable):
		return codes.Unavailable, v1.ErrorReason_MEMORY_UNAVAILABLE.String(), "memory service unavailable"
	case errors.As(err, &merr):
		return modelCode(merr), reasonModelError, modelMessage(merr)
	case errors.Is(err, models.ErrUnavailable):
		return codes.Unavailable, v1.ErrorReason_MODEL_UNAVAILABLE.String(), "model unavailable"
	case errors.Is(err, context.Canceled):
		return codes.Canceled, v1.ErrorReason_CANCELLED.String(), "invocation cancelled"
	case errors.Is(err, context.DeadlineExceeded):
		return codes.DeadlineExceeded, v1.ErrorReason_DEADLINE_EXCEEDED.String(), "deadline exceeded"
	default:
		return codes.Internal, v1.ErrorReason_INTERNAL.String(), "internal error"
	}
}

// invalid returns an INVALID_ARGUMENT status.
func invalid(msg string) error {
	return statusError(codes.InvalidArgument, v1.ErrorReason_INVALID_ARGUMENT.String(), msg)
}
