package instructions

import "errors"

var (
	// ErrContextVariableNotFound is matched (with [errors.Is]) by the
	// [*NotFoundError] for a required state key that is missing.
	ErrContextVariableNotFound = errors.New("context variable not found")

	// ErrArtifactNotFound is matched (with [errors.Is]) by the
	// [*NotFoundError] for a required artifact that is missing.
	ErrArtifactNotFound = errors.New("artifact not found")

	// ErrNoArtifactService is returned when a template names an artifact and
	// no [ArtifactLoader] was given. Its text is ADK's, hence the capital
	// and the full stop.
	ErrNoArtifactService = errors.New("Artifact service is not initialized.") //nolint:staticcheck // ADK's user-facing text.
)

// NotFoundError reports a required placeholder with nothing to fill it. Its
// message is ADK's, word for word, because it reaches users:
// "Context variable not found: `name`." or "Artifact name not found.".
type NotFoundError struct {
	// Name is the state key or artifact name, as written in the template.
	Name string
	// Artifact is true for an {artifact.name} placeholder.
	Artifact bool
}

// Error returns ADK's message for the missing placeholder.
func (e *NotFoundError) Error() string {
	if e.Artifact {
		return "Artifact " + e.Name + " not found."
	}
	return "Context variable not found: `" + e.Name + "`."
}

// Unwrap returns [ErrArtifactNotFound] or [ErrContextVariableNotFound].
func (e *NotFoundError) Unwrap() error {
	if e.Artifact {
		return ErrArtifactNotFound
	}
	return ErrContextVariableNotFound
}
