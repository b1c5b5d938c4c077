package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/anthropics/anthropic-sdk-go"

	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/models/modelhttp"
	"github.com/agentsvc/agentsvc/internal/runtime/pyfmt"
)

// mapError turns an error of the SDK into the error the adapter reports,
// prefixed with op: the context's error once ctx is done; a
// [*models.Error] for an error answer of the API (its HTTP status, the
// status name Google APIs give that code, as Gemini's errors carry, and the
// API's message); [models.ErrUnavailable] around a transport failure; the
// error itself otherwise. The message of an error answer is worded as f's
// Python stack words it (see [flavour.word]).
func mapError(ctx context.Context, op string, err error, f flavour) error {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return fmt.Errorf("%s: %w", op, ctxErr)
	}
	if errors.Is(err, modelhttp.ErrBodyTooLarge) {
		return fmt.Errorf("%s: %w", op, err)
	}
	var apiErr *anthropic.Error
	switch {
	case errors.As(err, &apiErr):
		return fmt.Errorf("%s: %w", op, f.word(modelError(apiErr)))
	case modelhttp.IsTransportError(err):
		return fmt.Errorf("%s: %w: %w", op, models.ErrUnavailable, err)
	}
	return fmt.Errorf("%s: %w", op, err)
}

// errorTypeStatus is the HTTP status of each error type Anthropic names,
// for an error event inside a stream that was answered with 200.
var errorTypeStatus = map[string]int{
	"invalid_request_error": http.StatusBadRequest,
	"authentication_error":  http.StatusUnauthorized,
	"permission_error":      http.StatusForbidden,
	"not_found_error":       http.StatusNotFound,
	"request_too_large":     http.StatusRequestEntityTooLarge,
	"rate_limit_error":      http.StatusTooManyRequests,
	"api_error":             http.StatusInternalServerError,
	"overloaded_error":      529,
}

// modelError converts an error answer. Its body is Anthropic's
// {"type":"error","error":{"type":...,"message":...}}; a body of another
// shape is kept whole as the message.
func modelError(e *anthropic.Error) *models.Error {
	raw := e.RawJSON()
	var env struct {
		Error struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	msg := raw
	if json.Unmarshal([]byte(raw), &env) == nil && env.Error.Message != "" {
		msg = env.Error.Message
	}
	code := e.StatusCode
	if code < 400 {
		if c, ok := errorTypeStatus[env.Error.Type]; ok {
			code = c
		} else {
			code = http.StatusInternalServerError
		}
	}
	return &models.Error{HTTPStatus: code, Status: statusName(code), Message: msg, Body: []byte(raw)}
}

// statusName returns the status name Google APIs give an HTTP status
// ([models.StatusName]), so that a model error reads the same whichever
// model failed; Anthropic's own codes take the nearest: 413 is a bad
// request, 529 (overloaded) unavailable.
func statusName(code int) string {
	switch code {
	case http.StatusRequestEntityTooLarge:
		return models.StatusName(http.StatusBadRequest)
	case 529:
		return models.StatusName(http.StatusServiceUnavailable)
	}
	return models.StatusName(code)
}

// word rewrites the message of an error answer as adk-python reports it
// with the flavour's Python stack: LiteLLM's exception text ("litellm.
// RateLimitError: AnthropicException - <body>") for LiteLlm, the anthropic
// SDK's ("Error code: 429 - <the body as a Python dict>") for the Claude
// class. An error without the answer's body keeps its message.
func (f flavour) word(e *models.Error) *models.Error {
	if len(e.Body) == 0 || e.HTTPStatus < 400 {
		return e
	}
	switch f {
	case liteLLM:
		class := models.LiteLLMClass(e.HTTPStatus)
		e.Message = "litellm." + class + ": AnthropicException - " + strings.TrimSpace(string(e.Body))
		if class == "InternalServerError" {
			e.Message += ". Handle with `litellm.InternalServerError`."
		}
	case claude:
		body, ok := pyfmt.ReprJSON(e.Body)
		if !ok {
			body = string(e.Body)
		}
		e.Message = "Error code: " + strconv.Itoa(e.HTTPStatus) + " - " + body
	}
	return e
}
