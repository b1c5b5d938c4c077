package server

import (
	"fmt"
	"regexp"
)

// Request limits.
const (
	maxIDLength = 256
)

var appNamePattern = regexp.MustCompile(`^[a-zA-Z0-9_]+$`)

func validateAppName(name string) error {
	if !appNamePattern.MatchString(name) {
		return invalid(fmt.Sprintf("app_name %q is invalid: use letters, digits and underscores", name))
	}
	return nil
}

func validateID(field, id string) error {
	switch {
	case id == "":
		return invalid(field + " is required")
	case len(id) > maxIDLength:
		return invalid(fmt.Sprintf("%s is longer than %d bytes", field, maxIDLength))
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
