package models_test

import (
	"errors"
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
