package models

import "net/http"

// LiteLLMClass is the exception class LiteLLM raises for an error answer
// of a provider with HTTP status code, as its messages name it (e.g.
// "RateLimitError" in "litellm.RateLimitError: ...").
func LiteLLMClass(code int) string {
	switch code {
	case http.StatusBadRequest:
		return "BadRequestError"
	case http.StatusUnauthorized:
		return "AuthenticationError"
	case http.StatusForbidden:
		return "PermissionDeniedError"
	case http.StatusNotFound:
		return "NotFoundError"
	case http.StatusRequestTimeout:
		return "Timeout"
	case http.StatusUnprocessableEntity:
		return "UnprocessableEntityError"
	case http.StatusTooManyRequests:
		return "RateLimitError"
	case http.StatusServiceUnavailable:
		return "ServiceUnavailableError"
	}
	if code >= 500 {
		return "InternalServerError"
	}
	return "APIError"
}
