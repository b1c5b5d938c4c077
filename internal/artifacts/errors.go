package artifacts

import "errors"

// Errors returned by a [Service]; test with errors.Is.
var (
	// ErrNotFound: the artifact or the version does not exist (ADK returns
	// None).
	ErrNotFound = errors.New("artifact not found")
	// ErrInvalidInput: a name, version or body that ADK rejects with
	// InputValidationError. The error is an [*InputError] with ADK's text.
	ErrInvalidInput = errors.New("invalid artifact input")
	// ErrTooLarge: the body or its metadata is past the store's [Limits].
	ErrTooLarge = errors.New("artifact too large")
	// ErrConflict: a save kept losing the race for a version number to other
	// writers and gave up; retrying the save is safe.
	ErrConflict = errors.New("artifact version conflict")
)

// InputError is a request that ADK rejects with InputValidationError. Its
// Message is the text ADK uses, fit to show to the caller; it matches
// [ErrInvalidInput] under errors.Is.
type InputError struct {
	Message string
}

// Error returns the message.
func (e *InputError) Error() string { return e.Message }

// Is reports whether target is [ErrInvalidInput].
func (e *InputError) Is(target error) bool { return target == ErrInvalidInput }

func inputError(msg string) error { return &InputError{Message: msg} }
