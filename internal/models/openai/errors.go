package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/openai/openai-go/v3"

	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/models/modelhttp"
)

// mapError turns an error of the SDK into the error the adapter reports:
// the context's error once ctx is done; a [*models.Error] for an error
// answer of the API, its message as LiteLLM words it (e.g.
// "litellm.RateLimitError: RateLimitError: OpenAIException - ..."), where
// exception names the provider's exception; [models.ErrUnavailable]
// wrapped around a transport failure; the error itself otherwise.
func mapError(ctx context.Context, op string, err error, exception string) error {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return fmt.Errorf("%s: %w", op, ctxErr)
	}
	var apiErr *openai.Error
	switch {
	case errors.As(err, &apiErr):
		return fmt.Errorf("%s: %w", op, modelError(apiErr, exception))
	case modelhttp.IsTransportError(err):
		return fmt.Errorf("%s: %w: %w", op, models.ErrUnavailable, err)
	}
	return fmt.Errorf("%s: %w", op, err)
}

// modelError converts an error answer.
func modelError(e *openai.Error, exception string) *models.Error {
	body := []byte(e.RawJSON())
	msg := e.Message
	if msg == "" {
		msg = string(body)
		// An answer whose error is not OpenAI's JSON keeps its body.
		var wrapped struct {
			Error json.RawMessage `json:"error"`
		}
		if json.Unmarshal(body, &wrapped) == nil && len(wrapped.Error) > 0 {
			msg = string(wrapped.Error)
		}
	}
	class := models.LiteLLMClass(e.StatusCode)
	return &models.Error{HTTPStatus: e.StatusCode, Status: models.StatusName(e.StatusCode),
		Message: "litellm." + class + ": " + class + ": " + exception + " - " + msg, Body: body}
}
