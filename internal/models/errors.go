package models

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// ErrUnavailable marks a model call that failed because the model could not
// be reached or answered with a transient failure (HTTP 429 or 5xx) after
// retries. Test with errors.Is.
var ErrUnavailable = errors.New("model unavailable")

// The Status of an [Error] for a call the adapter cut off itself, without
// an HTTP status from the model.
const (
	// StatusDeadlineExceeded is a call that took longer than its timeout.
	StatusDeadlineExceeded = "DEADLINE_EXCEEDED"
	// StatusResourceExhausted is a response larger than its caps (bytes
	// or streamed chunks).
	StatusResourceExhausted = "RESOURCE_EXHAUSTED"
	// StatusInvalidResponse is an answer that could not be read or that
	// breaks the service's input limits.
	StatusInvalidResponse = "INVALID_RESPONSE"
)

// Error is a failure reported by a model API, or a call the adapter cut off
// (then HTTPStatus is 0 and Status names why, see [StatusDeadlineExceeded]).
type Error struct {
	// HTTPStatus is the HTTP status code of the answer, 0 when none came.
	HTTPStatus int
	// Status is the API's status name, e.g. "RESOURCE_EXHAUSTED".
	Status string
	// Message is the API's message.
	Message string
	// Body is the API's error answer as it came (JSON), when the adapter
	// kept it; ADK 2.x quotes it in its error event.
	Body []byte
}

func (e *Error) Error() string {
	return fmt.Sprintf("model error %d %s: %s", e.HTTPStatus, e.Status, e.Message)
}

// Is reports whether the error is transient, so that errors.Is(err,
// ErrUnavailable) holds for 429, 5xx and transport failures (no HTTP status
// and no status name). A call cut off by its own limits is not transient.
func (e *Error) Is(target error) bool {
	return target == ErrUnavailable && (e.HTTPStatus == 0 && e.Status == "" || e.HTTPStatus == 429 || e.HTTPStatus >= 500)
}

// TimeoutError is the error of a call cut off after d.
func TimeoutError(d time.Duration) *Error {
	return &Error{Status: StatusDeadlineExceeded, Message: "model call timed out after " + d.String()}
}

// InvalidResponseError is the error of a call whose answer came but could
// not be used: it did not decode, or it broke an input limit. It carries
// HTTP status 502, as a gateway reports a bad answer from upstream.
func InvalidResponseError(why string) *Error {
	return &Error{HTTPStatus: http.StatusBadGateway, Status: StatusInvalidResponse, Message: why}
}

// TooLargeError is the error of a call cut off because its response went
// past a cap; what names the cap, e.g. "8388608 bytes".
func TooLargeError(what string) *Error {
	return &Error{Status: StatusResourceExhausted, Message: "model response exceeded " + what}
}

// ErrorClass names the class of the exception ADK would raise for a failed
// model call, which a retry policy's exceptions filter names
// (see package retry): "_ResourceExhaustedError" for HTTP 429 (ADK's
// subclass of google-genai's ClientError), "ClientError" for other 4xx,
// "ServerError" for 5xx, "ConnectError" for a model that could not be
// reached (httpx's), "TimeoutError" for a call past its timeout,
// "CancelledError" for a call whose caller went away, "ValueError" for an
// answer the adapter refused (unreadable, or past its caps), and
// "Exception" otherwise.
func ErrorClass(err error) string {
	if errors.Is(err, context.Canceled) {
		return "CancelledError"
	}
	if me := (*Error)(nil); errors.As(err, &me) {
		switch {
		case me.Status == StatusDeadlineExceeded && me.HTTPStatus == 0:
			return "TimeoutError"
		case me.Status == StatusInvalidResponse, me.Status == StatusResourceExhausted && me.HTTPStatus == 0:
			return "ValueError"
		case me.HTTPStatus == http.StatusTooManyRequests:
			return "_ResourceExhaustedError"
		case me.HTTPStatus >= 400 && me.HTTPStatus < 500:
			return "ClientError"
		case me.HTTPStatus >= 500:
			return "ServerError"
		}
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "TimeoutError"
	case errors.Is(err, ErrUnavailable):
		return "ConnectError"
	}
	return "Exception"
}

// TransientClasses are the classes of [ErrorClass] worth retrying by
// default: rate limits, server failures and unreachable models.
var TransientClasses = []string{"_ResourceExhaustedError", "ServerError", "ConnectError"}

// StatusName returns the google.rpc status name Google APIs send with an
// HTTP status code.
func StatusName(code int) string {
	switch code {
	case http.StatusBadRequest:
		return "INVALID_ARGUMENT"
	case http.StatusUnauthorized:
		return "UNAUTHENTICATED"
	case http.StatusForbidden:
		return "PERMISSION_DENIED"
	case http.StatusNotFound:
		return "NOT_FOUND"
	case http.StatusConflict:
		return "ABORTED"
	case http.StatusTooManyRequests:
		return "RESOURCE_EXHAUSTED"
	case 499:
		return "CANCELLED"
	case http.StatusNotImplemented:
		return "NOT_IMPLEMENTED"
	case http.StatusServiceUnavailable:
		return "UNAVAILABLE"
	case http.StatusGatewayTimeout:
		return "DEADLINE_EXCEEDED"
	}
	if code >= 500 {
		return "INTERNAL"
	}
	return "UNKNOWN"
}
