package artifacts

import (
	"fmt"
	"strings"
	"unicode/utf8"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// ValidateKey applies ADK's rules to a key: the app, user and (for a
// session-scoped filename) session ids as ADK's validate_path_segment does,
// and the filename as ADK's FileArtifactService does. A failure is an
// [*InputError] with ADK's text.
func ValidateKey(key Key) error {
	if err := validateIDs(key.AppName, key.UserID); err != nil {
		return err
	}
	if !key.UserScoped() {
		if key.SessionID == "" {
			return inputError("Session ID must be provided for session-scoped artifacts.")
		}
		if err := validateSegment(key.SessionID, "session_id"); err != nil {
			return err
		}
	}
	return validateFilename(key.Filename)
}

// ValidateScope applies ADK's rules to the ids that [Service.ListKeys]
// takes; sessionID may be empty.
func ValidateScope(appName, userID, sessionID string) error {
	if err := validateIDs(appName, userID); err != nil {
		return err
	}
	if sessionID != "" {
		return validateSegment(sessionID, "session_id")
	}
	return nil
}

// ValidateSessionID checks that artifacts can be kept under a session id:
// ADK's validate_path_segment rules, and at most [MaxFilenameBytes] once
// encoded as the stores write it (see [EscapeSegment]). A failure is an
// [*InputError] with ADK's text where ADK has one.
func ValidateSessionID(id string) error {
	if err := validateSegment(id, "session_id"); err != nil {
		return err
	}
	if n := len(EscapeSegment(id)); n > MaxFilenameBytes {
		return inputError(fmt.Sprintf(
			"session_id %s is too long: %d bytes as stored (each '%%', '/', '\\' and control character counts three), over the limit of %d.",
			pyRepr(id), n, MaxFilenameBytes))
	}
	return nil
}

// EscapeSegment encodes s as one path segment, as every store writes ids
// and filenames: '%', '/', '\' and control characters become %XX (%25,
// %2F, %5C, ...), as do the dots of a segment of dots only and the last dot
// of one ending in "..", so that no store reads it as a folder of its own
// or as a parent.
func EscapeSegment(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	dotsOnly := strings.Trim(s, ".") == ""
	// fileblob and s3blob rewrite control characters and "../" in keys,
	// and fileblob not in list prefixes alike: a segment holds neither.
	lastDot := strings.HasSuffix(s, "..")
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '%' || c == '/' || c == '\\' || c < 0x20 || c == 0x7f,
			c == '.' && (dotsOnly || lastDot && i == len(s)-1):
			fmt.Fprintf(&b, "%%%02X", c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// ValidatePart checks that part can be saved: it carries inline_data or a
// non-empty text, as ADK's GcsArtifactService requires.
func ValidatePart(part *v1.Part) error {
	if part == nil || (part.GetInlineData() == nil && part.GetText() == "") {
		return inputError("Artifact must have either inline_data or text.")
	}
	return nil
}

func validateIDs(appName, userID string) error {
	if err := validateSegment(appName, "app_name"); err != nil {
		return err
	}
	return validateSegment(userID, "user_id")
}

// validateSegment rejects an id that could change the path built from it,
// with the texts of ADK's artifact_util.validate_path_segment. Interior
// slashes are allowed, as there (Vertex app names hold them): stores keep
// each id in one path segment.
func validateSegment(value, field string) error {
	switch {
	case value == "":
		return inputError(field + " must not be empty.")
	case strings.ContainsRune(value, 0):
		return inputError(field + " must not contain null bytes.")
	case !utf8.ValidString(value):
		return inputError(field + " must be valid UTF-8.")
	case strings.HasPrefix(value, "/") || strings.HasPrefix(value, `\`):
		return inputError(fmt.Sprintf("%s %s must not be an absolute path or start with a slash.", field, pyRepr(value)))
	case driveQualified(value):
		return inputError(fmt.Sprintf("%s %s must not be drive-qualified.", field, pyRepr(value)))
	case value == "." || hasParentSegment(value):
		return inputError(fmt.Sprintf("%s %s must not contain traversal segments.", field, pyRepr(value)))
	}
	return nil
}

// validateFilename applies the checks of ADK's FileArtifactService to a
// filename, on the name less its "user:" prefix and surrounding white space,
// as ADK does. A filename may hold "/": stores keep it in one path segment,
// so that "a/b" never nests under "a".
func validateFilename(filename string) error {
	name := strings.TrimSpace(strings.TrimPrefix(filename, UserPrefix))
	switch {
	case name == "":
		return inputError("filename must not be empty.")
	case strings.ContainsRune(filename, 0):
		return inputError("filename must not contain null bytes.")
	case !utf8.ValidString(filename):
		return inputError("filename must be valid UTF-8.")
	case strings.HasPrefix(name, "/") || strings.HasPrefix(name, `\`) || driveQualified(name):
		return inputError(fmt.Sprintf("Rooted or drive-qualified artifact filename %s is not permitted; provide a path relative to the storage scope.", pyRepr(filename)))
	case hasParentSegment(name):
		return inputError(fmt.Sprintf("Artifact filename %s must not contain parent traversal.", pyRepr(filename)))
	}
	return nil
}

// driveQualified reports whether value starts with a Windows drive letter
// such as "C:".
func driveQualified(value string) bool {
	if len(value) < 2 || value[1] != ':' {
		return false
	}
	c := value[0] | 0x20 // lower case for letters
	return c >= 'a' && c <= 'z'
}

// hasParentSegment reports whether value has a ".." segment under either
// platform's separators.
func hasParentSegment(value string) bool {
	for _, seg := range strings.FieldsFunc(value, func(r rune) bool { return r == '/' || r == '\\' }) {
		if seg == ".." {
			return true
		}
	}
	return false
}
