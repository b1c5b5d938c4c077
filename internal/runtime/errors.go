package runtime

import (
	"errors"
	"fmt"
	"strconv"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/features"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/runtime/pyfmt"
)

// Code classifies an engine error for the service boundary, which maps it to
// a gRPC status code.
type Code int

// Error codes, named after the gRPC codes they map to.
const (
	CodeInternal Code = iota
	CodeInvalidArgument
	CodeNotFound
	CodeAlreadyExists
	CodeFailedPrecondition
	CodeResourceExhausted
	CodeAborted
	CodeUnavailable
	CodeDeadlineExceeded
	// CodeUnknown is a failure outside the service: a client's callback
	// that raised.
	CodeUnknown
)

// Error is an engine error whose Message is safe to show to clients (it is
// ADK's text where ADK has one).
type Error struct {
	Code Code
	// Reason is a short UPPER_SNAKE_CASE identifier, e.g. "LLM_CALLS_EXCEEDED".
	Reason  string
	Message string
	// Err is the underlying cause, if any; it is not shown to clients.
	Err error
}

// Error returns the client-safe message; the cause stays reachable through
// errors.Unwrap.
func (e *Error) Error() string { return e.Message }

func (e *Error) Unwrap() error { return e.Err }

// Is matches errors of the same Code and Reason, so that the sentinel errors
// below work with errors.Is.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code && t.Reason == e.Reason
}

// Sentinel errors; test with errors.Is. The errors the engine returns carry
// a more specific message.
var (
	ErrSessionNotFound  = &Error{Code: CodeNotFound, Reason: v1.ErrorReason_SESSION_NOT_FOUND.String(), Message: "Session not found"}
	ErrInvalidRequest   = &Error{Code: CodeInvalidArgument, Reason: v1.ErrorReason_INVALID_REQUEST.String(), Message: "invalid request"}
	ErrLLMCallsExceeded = &Error{Code: CodeResourceExhausted, Reason: v1.ErrorReason_LLM_CALLS_EXCEEDED.String(),
		Message: "Max number of llm calls exceeded"}
	ErrAgentNotFound = &Error{Code: CodeFailedPrecondition, Reason: v1.ErrorReason_AGENT_NOT_FOUND.String(), Message: "agent not found"}
	ErrToolNotFound  = &Error{Code: CodeFailedPrecondition, Reason: v1.ErrorReason_TOOL_NOT_FOUND.String(), Message: "tool not found"}
)

func newLLMCallsExceeded(limit int) error {
	return &Error{Code: CodeResourceExhausted, Reason: ErrLLMCallsExceeded.Reason,
		Message: fmt.Sprintf("Max number of llm calls limit of `%d` exceeded", limit)}
}

// InvalidRequest returns an error for a malformed request.
func InvalidRequest(format string, args ...any) error {
	return &Error{Code: CodeInvalidArgument, Reason: ErrInvalidRequest.Reason, Message: fmt.Sprintf(format, args...)}
}

// AppConfigError returns an error for an invocation that fails because of the
// app's own configuration or state (a missing instruction variable, an
// unknown agent or tool).
func AppConfigError(reason string, err error) error {
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	return &Error{Code: CodeFailedPrecondition, Reason: reason, Message: err.Error(), Err: err}
}

// ModelAPIErrorText is str() of the APIError google-genai raises for an
// error answer of the model API: "<HTTP status> <status name>. <the
// answer as Python prints the decoded JSON>" (the API's message when the
// answer was not kept). It is "" for an error that is not such an answer.
func ModelAPIErrorText(err error) string {
	var merr *models.Error
	if !errors.As(err, &merr) || merr.HTTPStatus == 0 {
		return ""
	}
	detail := merr.Message
	if r, ok := pyfmt.ReprJSON(merr.Body); ok {
		detail = r
	}
	return strconv.Itoa(merr.HTTPStatus) + " " + merr.Status + ". " + detail
}

// resourceExhaustedHint opens the text of a 429, as ADK's Gemini model
// words it.
const resourceExhaustedHint = "\nOn how to mitigate this issue, please refer to:\n\n" +
	"https://google.github.io/adk-docs/agents/models/google-gemini/#error-code-429-resource_exhausted\n"

// ModelErrorText is str() of the exception ADK's Gemini model raises for a
// failed call: [ModelAPIErrorText], after ADK's hint for a 429. It is the
// model's message for a failure without an answer, and "" when err is not
// a model failure.
func ModelErrorText(err error) string {
	var merr *models.Error
	if !errors.As(err, &merr) {
		return ""
	}
	if merr.HTTPStatus == 0 {
		return merr.Message
	}
	text := ModelAPIErrorText(merr)
	if merr.HTTPStatus == 429 {
		text = resourceExhaustedHint + "\n\n" + text
	}
	return text
}

// ModelErrorType is the Python class of the exception ADK's Gemini model
// raises for a failed call: "_ResourceExhaustedError" (ADK's own, for a
// 429), google-genai's "ClientError" (4xx), "ServerError" (5xx) or
// "APIError". It is "" for a failure without an answer, whose Python class
// depends on the HTTP library, and when err is not a model failure.
func ModelErrorType(err error) string {
	var merr *models.Error
	switch {
	case !errors.As(err, &merr) || merr.HTTPStatus == 0:
		return ""
	case merr.HTTPStatus == 429:
		return "_ResourceExhaustedError"
	case merr.HTTPStatus >= 400 && merr.HTTPStatus < 500:
		return "ClientError"
	case merr.HTTPStatus >= 500 && merr.HTTPStatus < 600:
		return "ServerError"
	}
	return "APIError"
}

// FeatureNotEnabled is the error of ADK's experimental decorator when code
// of a feature that is turned off is used: the RuntimeError ADK raises,
// worded as Python formats its FeatureName ("FeatureName.<NAME>").
func FeatureNotEnabled(n features.Name) error {
	return &Error{Code: CodeFailedPrecondition, Reason: v1.ErrorReason_FEATURE_NOT_ENABLED.String(),
		Message: "Feature FeatureName." + string(n) + " is not enabled."}
}
