package llmagent

import (
	"errors"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/limits"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// unknownModelError is the error code of a model failure without a status
// name (no answer came, or the call was cut off without one).
const unknownModelError = "UNKNOWN_ERROR"

// Bounds of a model error event's fields: the message quotes the model's
// error body, which the event must not store whole.
const (
	maxModelErrorCode    = 64
	maxModelErrorMessage = 4096
)

// modelErrorEvent is the event ADK 2.x yields and stores when the model call
// fails and no on-model-error callback answers: authored by the agent, no
// content, errorCode the API's status name (e.g. "RESOURCE_EXHAUSTED") and
// errorMessage "<http status> <status name>. <the error answer as Python
// prints it>", after ADK's hint for a 429. The run then fails
// as in 1.x. It is nil in the 1.x behaviour, which stores nothing, and for
// any failure that is not the model's.
func modelErrorEvent(ictx *runtime.InvocationContext, skeleton *v1.Event, err error) *v1.Event {
	var merr *models.Error
	if ictx.App().Behavior != runtime.Behavior2x || !errors.As(err, &merr) {
		return nil
	}
	code := merr.Status
	if code == "" {
		code = unknownModelError
	}
	msg := runtime.ModelErrorText(merr)
	if msg == "" {
		msg = code
	}
	code, msg = limits.Clip(code, maxModelErrorCode), limits.Clip(msg, maxModelErrorMessage)
	ev := finalize(skeleton, &v1.LlmResponse{ErrorCode: code, ErrorMessage: msg}, nil)
	skeleton.Id = runtime.NewEventID()
	return ev
}
