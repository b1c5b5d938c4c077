package gemini

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"google.golang.org/genai"

	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/models/modelhttp"
)

// mapError turns an error of the genai SDK into the error the adapter
// reports, prefixed with op: the context's error once ctx is done; a
// [*models.Error] for an answer of the API; [models.ErrUnavailable] wrapped
// around a transport failure; the error itself otherwise (a request the SDK
// refused to build, or an answer it could not decode).
func mapError(ctx context.Context, op string, err error) error {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return fmt.Errorf("%s: %w", op, ctxErr)
	}
	var apiErr genai.APIError
	var apiErrPtr *genai.APIError
	var body []byte
	if b := (*answeredError)(nil); errors.As(err, &b) {
		body = b.body
	}
	switch {
	case errors.As(err, &apiErr):
		return fmt.Errorf("%s: %w", op, modelError(apiErr, body))
	case errors.As(err, &apiErrPtr) && apiErrPtr != nil:
		return fmt.Errorf("%s: %w", op, modelError(*apiErrPtr, body))
	case isTransportError(err):
		return fmt.Errorf("%s: %w: %w", op, models.ErrUnavailable, err)
	}
	return fmt.Errorf("%s: %w", op, err)
}

// modelError converts an API error, naming the status canonically when the
// body did not (a body that is not Google's error JSON gives the HTTP status
// line instead).
func modelError(e genai.APIError, body []byte) *models.Error {
	status := e.Status
	if status == "" || strings.ContainsAny(status[:1], "0123456789") {
		status = statusName(e.Code)
	}
	return &models.Error{HTTPStatus: e.Code, Status: status, Message: e.Message, Body: body}
}

// answeredError is an API error with the body of the answer that carried
// it.
type answeredError struct {
	err  error
	body []byte
}

func (e *answeredError) Error() string { return e.err.Error() }
func (e *answeredError) Unwrap() error { return e.err }

// withStatus returns err with the HTTP status of the tapped answer when err
// is an API error and the status is not a success: the SDK takes the code
// from the body's error object, and an answer such as HTTP 429
// {"error":{}} would otherwise report 0. An error inside a successful
// stream keeps the body's code. A successful answer that the SDK could not
// read is the model's failure, not the service's: it becomes
// [models.InvalidResponseError].
func (t *bodyTap) withStatus(err error) error {
	if errors.Is(err, errUnreadableAnswer) {
		return models.InvalidResponseError("the model's answer could not be read: " + err.Error())
	}
	if t.status >= 200 && t.status <= 299 && !isAPIError(err) && !isTransportError(err) &&
		!errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		return models.InvalidResponseError("the model's answer could not be read: " + err.Error())
	}
	if t.status == 0 || t.status >= 200 && t.status <= 299 {
		return err
	}
	var apiErr genai.APIError
	var apiErrPtr *genai.APIError
	switch {
	case errors.As(err, &apiErr):
		apiErr.Code = t.status
		return &answeredError{err: apiErr, body: bytes.Clone(t.body())}
	case errors.As(err, &apiErrPtr) && apiErrPtr != nil:
		e := *apiErrPtr
		e.Code = t.status
		return &answeredError{err: &e, body: bytes.Clone(t.body())}
	}
	return err
}

// isAPIError reports whether err is an error answer of the API.
func isAPIError(err error) bool {
	var apiErr genai.APIError
	var apiErrPtr *genai.APIError
	return errors.As(err, &apiErr) || errors.As(err, &apiErrPtr) && apiErrPtr != nil
}

// isTransportError reports whether err is a failure to reach the API or a
// connection lost while reading its answer.
func isTransportError(err error) bool { return modelhttp.IsTransportError(err) }

// statusName returns the google.rpc status name Google APIs send with an
// HTTP status code.
func statusName(code int) string { return models.StatusName(code) }
