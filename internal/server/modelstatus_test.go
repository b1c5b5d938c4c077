package server

import (
	"errors"
	"fmt"
	"log/slog"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/agentsvc/agentsvc/internal/models"
)

var discardLog = slog.New(slog.DiscardHandler)

func TestModelErrorStatus(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		err      error
		code     codes.Code
		reason   string
		msg      string
		metadata map[string]string
	}{
		{"400", &models.Error{HTTPStatus: 400, Status: "INVALID_ARGUMENT", Message: "bad schema"},
			codes.FailedPrecondition, "MODEL_ERROR", "bad schema", map[string]string{"http_status": "400", "model_status": "INVALID_ARGUMENT"}},
		{"403", &models.Error{HTTPStatus: 403, Status: "PERMISSION_DENIED", Message: "API key not valid"},
			codes.FailedPrecondition, "MODEL_ERROR", "API key not valid", map[string]string{"http_status": "403", "model_status": "PERMISSION_DENIED"}},
		{"404", &models.Error{HTTPStatus: 404, Status: "NOT_FOUND", Message: "models/x is not found"},
			codes.FailedPrecondition, "MODEL_ERROR", "models/x is not found", map[string]string{"http_status": "404", "model_status": "NOT_FOUND"}},
		{"429", &models.Error{HTTPStatus: 429, Status: "RESOURCE_EXHAUSTED", Message: "quota"},
			codes.ResourceExhausted, "MODEL_ERROR", "quota", map[string]string{"http_status": "429", "model_status": "RESOURCE_EXHAUSTED"}},
		{"500 without a message", &models.Error{HTTPStatus: 500, Status: "INTERNAL"},
			codes.Unavailable, "MODEL_ERROR", "model error: HTTP 500 INTERNAL", map[string]string{"http_status": "500", "model_status": "INTERNAL"}},
		{"503", &models.Error{HTTPStatus: 503, Status: "UNAVAILABLE", Message: "overloaded"},
			codes.Unavailable, "MODEL_ERROR", "overloaded", map[string]string{"http_status": "503", "model_status": "UNAVAILABLE"}},
		{"504", &models.Error{HTTPStatus: 504, Status: "DEADLINE_EXCEEDED", Message: "slow"},
			codes.DeadlineExceeded, "MODEL_ERROR", "slow", map[string]string{"http_status": "504", "model_status": "DEADLINE_EXCEEDED"}},
		{"timeout, wrapped", fmt.Errorf("llm: %w", models.TimeoutError(120e9)),
			codes.DeadlineExceeded, "MODEL_ERROR", "model call timed out after 2m0s", map[string]string{"model_status": "DEADLINE_EXCEEDED"}},
		{"too large", models.TooLargeError("8388608 bytes"),
			codes.ResourceExhausted, "MODEL_ERROR", "model response exceeded 8388608 bytes", map[string]string{"model_status": "RESOURCE_EXHAUSTED"}},
		{"unreachable", fmt.Errorf("gemini: %w: %w", models.ErrUnavailable, errors.New("connection refused")),
			codes.Unavailable, "MODEL_UNAVAILABLE", "model unavailable", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			st := status.Convert(toStatus(t.Context(), discardLog, tt.err))
			var info *errdetails.ErrorInfo
			for _, d := range st.Details() {
				info, _ = d.(*errdetails.ErrorInfo)
			}
			if st.Code() != tt.code || st.Message() != tt.msg || info.GetReason() != tt.reason || info.GetDomain() != errorDomain {
				t.Errorf("status %v %q %v, want %v %q reason %s", st.Code(), st.Message(), info, tt.code, tt.msg, tt.reason)
			}
			if diff := cmp.Diff(tt.metadata, info.GetMetadata()); diff != "" {
				t.Errorf("metadata (-want +got):\n%s", diff)
			}
		})
	}
}
