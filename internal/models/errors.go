package models

import (
	"errors"
	"fmt"
)

// ErrUnavailable marks a model call that failed because the model could not
// be reached or answered with a transient failure (HTTP 429 or 5xx) after
// retries. Test with errors.Is.
var ErrUnavailable = errors.New("model unavailable")

// Error is a failure reported by a model API.
type Error struct {
	// HTTPStatus is the HTTP status code of the answer, 0 when none came.
	HTTPStatus int
	// Status is the API's status name, e.g. "RESOURCE_EXHAUSTED".
	Status string
	// Message is the API's message.
	Message string
}

func (e *Error) Error() string {
	return fmt.Sprintf("model error %d %s: %s", e.HTTPStatus, e.Status, e.Message)
}

// Is reports whether the error is transient, so that errors.Is(err,
// ErrUnavailable) holds for 429, 5xx and transport failures.
func (e *Error) Is(target error) bool {
	return target == ErrUnavailable && (e.HTTPStatus == 0 || e.HTTPStatus == 429 || e.HTTPStatus >= 500)
}
