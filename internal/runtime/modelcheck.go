package runtime

import (
	"errors"
	"fmt"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/limits"
	"github.com/agentsvc/agentsvc/internal/models"
)

// CheckModelResponse returns an error when resp holds a value (function
// call arguments, any Struct) nested more than maxDepth levels; zero or
// less means [limits.DefaultMaxDepth]. The error is a failure of the model
// call, a [*models.Error] with HTTP status 502 and status
// "INVALID_RESPONSE", so that it takes the path of any failed model call
// (the on-model-error callbacks, then the caller) and nothing of the
// response is stored. Every response of a [models.Model] goes through it.
func CheckModelResponse(resp *v1.LlmResponse, maxDepth int) error {
	err := limits.CheckDepth("llm_response", resp, maxDepth)
	var de *limits.DepthError
	if !errors.As(err, &de) {
		return err
	}
	return fmt.Errorf("runtime: check model response: %w",
		models.InvalidResponseError("the model answered with a value nested too deep: "+de.Error()))
}
