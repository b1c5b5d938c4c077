package models_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/models"
)

func TestErrorIsUnavailable(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  *models.Error
		want bool
	}{
		{&models.Error{}, true}, // no answer at all
		{&models.Error{HTTPStatus: 429, Status: "RESOURCE_EXHAUSTED"}, true},
		{&models.Error{HTTPStatus: 503, Status: "UNAVAILABLE"}, true},
		{&models.Error{HTTPStatus: 400, Status: "INVALID_ARGUMENT"}, false},
		// Cut off by the adapter's own limits: retrying would fail the same.
		{models.TimeoutError(2 * time.Minute), false},
		{models.TooLargeError("10 chunks"), false},
	}
	for _, tt := range tests {
		if got := errors.Is(tt.err, models.ErrUnavailable); got != tt.want {
			t.Errorf("errors.Is(%v, ErrUnavailable) = %v, want %v", tt.err, got, tt.want)
		}
	}
	if got, want := models.TimeoutError(2*time.Minute).Message, "model call timed out after 2m0s"; got != want {
		t.Errorf("timeout message %q, want %q", got, want)
	}
}

// TestBehaviorErrorClass checks the class names a retry policy's
// exceptions filter on, as ADK raises them for a failed Gemini call.
func TestBehaviorErrorClass(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  error
		want string
	}{
		{&models.Error{HTTPStatus: 429, Status: "RESOURCE_EXHAUSTED"}, "_ResourceExhaustedError"},
		{fmt.Errorf("op: %w", &models.Error{HTTPStatus: 400, Status: "INVALID_ARGUMENT"}), "ClientError"},
		{&models.Error{HTTPStatus: 503, Status: "UNAVAILABLE"}, "ServerError"},
		{&models.Error{HTTPStatus: 500, Status: "INTERNAL"}, "ServerError"},
		{models.InvalidResponseError("bad"), "ValueError"},
		{models.TooLargeError("8 bytes"), "ValueError"},
		{models.TimeoutError(time.Second), "TimeoutError"},
		{fmt.Errorf("op: %w: %w", models.ErrUnavailable, errors.New("connection refused")), "ConnectError"},
		{fmt.Errorf("op: %w", context.Canceled), "CancelledError"},
		{context.DeadlineExceeded, "TimeoutError"},
		{errors.New("other"), "Exception"},
	}
	for _, tt := range tests {
		if got := models.ErrorClass(tt.err); got != tt.want {
			t.Errorf("ErrorClass(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}
