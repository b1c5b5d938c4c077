package server

import (
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf8"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
)

// Request limits.
const (
	// maxIDLength bounds user, session, invocation and request ids, in
	// bytes.
	maxIDLength = 256
	// maxAppNameLength bounds app names, in bytes.
	maxAppNameLength = 128
	// maxEchoBytes bounds how much of a rejected value an error message
	// quotes back.
	maxEchoBytes = 32
)

// validateAppName checks an app name: 1 to maxAppNameLength letters, digits
// and underscores. The error quotes at most a short, escaped prefix of a
// bad name.
func validateAppName(name string) error {
	if name == "" {
		return invalid("app_name is required")
	}
	if len(name) > maxAppNameLength {
		return invalid(fmt.Sprintf("app_name is longer than %d bytes", maxAppNameLength))
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return invalid(fmt.Sprintf("app_name %s is invalid: use letters, digits and underscores", echo(name)))
		}
	}
	return nil
}

// validateID checks a required id.
func validateID(field, id string) error {
	if id == "" {
		return invalid(field + " is required")
	}
	return validateOptionalID(field, id)
}

// validateOptionalID checks an id that may be empty: at most maxIDLength
// bytes of valid UTF-8 without control characters. A NUL in particular
// would let two users' keys collide where ids are joined into one key.
func validateOptionalID(field, id string) error {
	if len(id) > maxIDLength {
		return invalid(fmt.Sprintf("%s is longer than %d bytes", field, maxIDLength))
	}
	for i, r := range id {
		switch {
		case r == utf8.RuneError:
			if _, size := utf8.DecodeRuneInString(id[i:]); size == 1 {
				return invalid(field + " is not valid UTF-8")
			}
		case r < 0x20 || r == 0x7f || r >= 0x80 && unicode.IsControl(r):
			return invalid(fmt.Sprintf("%s must not contain control characters (found %U)", field, r))
		}
	}
	return nil
}

// echo quotes at most maxEchoBytes of a rejected value, escaped, for an
// error message.
func echo(v string) string {
	if len(v) <= maxEchoBytes {
		return strconv.Quote(v)
	}
	cut := maxEchoBytes
	for cut > 0 && !utf8.RuneStart(v[cut]) {
		cut--
	}
	return strconv.Quote(v[:cut]) + "..."
}

// validateSessionKey checks the app, user and session of a request.
func validateSessionKey(app, user, session string) error {
	if err := validateAppName(app); err != nil {
		return err
	}
	if err := validateID("user_id", user); err != nil {
		return err
	}
	return validateID("session_id", session)
}

// validateRunRequest checks what a run request carries besides its
// content: the session key and the optional invocation and request ids.
func validateRunRequest(req *api.RunRequest) error {
	if err := validateSessionKey(req.GetAppName(), req.GetUserId(), req.GetSessionId()); err != nil {
		return err
	}
	if err := validateOptionalID("invocation_id", req.GetInvocationId()); err != nil {
		return err
	}
	if err := validateOptionalID("request_id", req.GetRequestId()); err != nil {
		return err
	}
	return nil
}
