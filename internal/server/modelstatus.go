package server

import (
	"errors"
	"net/http"
	"strconv"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models"
)

// reasonModelError is the ErrorInfo reason of a failure the model reported
// (or a model call the service cut off), with metadata http_status (when an
// answer came) and model_status.
var reasonModelError = v1.ErrorReason_MODEL_ERROR.String()

// maxModelErrorFrame bounds the message of a model's failure in a /run_sse
// error frame: google-genai's text quotes the model's error answer.
const maxModelErrorFrame = 4096

// isModelError reports a failure of the model call (an error answer, or a
// call that got none).
func isModelError(err error) bool {
	var merr *models.Error
	return errors.As(err, &merr)
}

// modelCode maps a model failure to the code a caller can act on. The
// model's answer is about the service's request to it, not the caller's, so
// a 4xx is never INVALID_ARGUMENT:
//
//	429                                 RESOURCE_EXHAUSTED (quota: retry later)
//	504                                 DEADLINE_EXCEEDED
//	other 5xx                           UNAVAILABLE (retry)
//	other 4xx                           FAILED_PRECONDITION (the app's model,
//	                                    key or request does not suit the model)
//	cut off: timeout                    DEADLINE_EXCEEDED
//	cut off: response over a cap        RESOURCE_EXHAUSTED
//	no answer                           UNAVAILABLE
func modelCode(e *models.Error) codes.Code {
	switch {
	case e.HTTPStatus == http.StatusTooManyRequests:
		return codes.ResourceExhausted
	case e.HTTPStatus == http.StatusGatewayTimeout:
		return codes.DeadlineExceeded
	case e.HTTPStatus >= 500:
		return codes.Unavailable
	case e.HTTPStatus >= 400:
		return codes.FailedPrecondition
	case e.Status == models.StatusDeadlineExceeded:
		return codes.DeadlineExceeded
	case e.Status == models.StatusResourceExhausted:
		return codes.ResourceExhausted
	}
	return codes.Unavailable
}

// modelMessage is what the caller reads of a model failure: the model's own
// message.
func modelMessage(e *models.Error) string {
	if e.Message != "" {
		return e.Message
	}
	if e.HTTPStatus > 0 {
		return "model error: HTTP " + strconv.Itoa(e.HTTPStatus) + " " + e.Status
	}
	return "model error: " + e.Status
}

// modelStatusError is the status of a model failure, with its ErrorInfo.
func modelStatusError(e *models.Error) error {
	md := map[string]string{"model_status": e.Status}
	if e.HTTPStatus > 0 {
		md["http_status"] = strconv.Itoa(e.HTTPStatus)
	}
	st := status.New(modelCode(e), modelMessage(e))
	if withInfo, err := st.WithDetails(&errdetails.ErrorInfo{Reason: reasonModelError, Domain: errorDomain, Metadata: md}); err == nil {
		st = withInfo
	}
	return st.Err()
}
