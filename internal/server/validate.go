package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf8"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/artifacts"
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

// validateNewSessionID checks the id of a session about to be created:
// [validateID]'s rules, and those of the artifact stores (no "." or ".."
// segment, no leading slash or drive letter, at most 255 bytes as
// stored), so that a session is never created that could not keep
// artifacts. The message is ADK's validate_path_segment's.
func validateNewSessionID(id string) error {
	if err := validateID("session_id", id); err != nil {
		return err
	}
	var aerr *artifacts.InputError
	if err := artifacts.ValidateSessionID(id); errors.As(err, &aerr) {
		return invalid(aerr.Message)
	}
	return nil
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
// content: the session key, the optional invocation and request ids and the
// streaming mode, which must be one this server knows.
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
	if mode := req.GetRunConfig().GetStreamingMode(); api.StreamingMode_name[int32(mode)] == "" {
		return invalid(fmt.Sprintf("run_config.streaming_mode %d is not a known streaming mode", int32(mode)))
	}
	return nil
}

// checkStreamingModeJSON rejects a REST run body whose
// run_config.streaming_mode names no known mode: the JSON decoder, which
// ignores what it does not know, leaves such a mode unset. Only a body that
// mentions the field is read again.
func checkStreamingModeJSON(req *api.RunRequest, body []byte) error {
	if req.GetRunConfig().GetStreamingMode() != api.StreamingMode_STREAMING_MODE_UNSPECIFIED ||
		!bytes.Contains(body, []byte("streamingMode")) && !bytes.Contains(body, []byte("streaming_mode")) {
		return nil
	}
	type runConfig struct {
		CamelCase json.RawMessage `json:"streamingMode"`
		SnakeCase json.RawMessage `json:"streaming_mode"`
	}
	var raw struct {
		CamelCase *runConfig `json:"runConfig"`
		SnakeCase *runConfig `json:"run_config"`
	}
	if err := json.Unmarshal(body, &raw); err != nil {
		return nil // the proto decoder accepted it; nothing more to say
	}
	for _, rc := range []*runConfig{raw.CamelCase, raw.SnakeCase} {
		if rc == nil {
			continue
		}
		for _, v := range []json.RawMessage{rc.CamelCase, rc.SnakeCase} {
			if len(v) == 0 || string(v) == "null" {
				continue
			}
			var name string
			if json.Unmarshal(v, &name) == nil {
				if _, ok := api.StreamingMode_value[name]; ok {
					continue
				}
				return invalid(fmt.Sprintf("run_config.streaming_mode %s is not a known streaming mode", echo(name)))
			}
			var n int32
			if json.Unmarshal(v, &n) == nil && api.StreamingMode_name[n] != "" {
				continue
			}
			return invalid("run_config.streaming_mode is not a known streaming mode")
		}
	}
	return nil
}
