package artifacts_test

import (
	"errors"
	"strings"
	"testing"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/artifacts"
)

func TestValidateKey(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		key  artifacts.Key
		want string // ADK's message; empty when valid
	}{
		{artifacts.Key{AppName: "a", UserID: "u", SessionID: "s", Filename: "f.txt"}, ""},
		{artifacts.Key{AppName: "a", UserID: "u", Filename: "user:f.txt"}, ""},
		{artifacts.Key{AppName: "projects/p/x", UserID: "u", SessionID: "s", Filename: "dir/f"}, ""},
		{artifacts.Key{AppName: "a", UserID: "u", Filename: "f.txt"}, "Session ID must be provided for session-scoped artifacts."},
		{artifacts.Key{AppName: "a", UserID: "u", SessionID: "s", Filename: "it's/../x"}, `Artifact filename "it's/../x" must not contain parent traversal.`},
		{artifacts.Key{AppName: "a", UserID: "u", SessionID: "s", Filename: "C:\\x"}, `Rooted or drive-qualified artifact filename 'C:\\x' is not permitted; provide a path relative to the storage scope.`},
		{artifacts.Key{AppName: "a", UserID: "u\n..", SessionID: "s", Filename: "f"}, ""},
		{artifacts.Key{AppName: "a", UserID: "\xff", SessionID: "s", Filename: "f"}, "user_id must be valid UTF-8."},
		{artifacts.Key{AppName: "a", UserID: "u", SessionID: "s\\..", Filename: "f"}, `session_id 's\\..' must not contain traversal segments.`},
		{artifacts.Key{AppName: "a", UserID: "u", SessionID: "s", Filename: "\x01/../x"}, `Artifact filename '\x01/../x' must not contain parent traversal.`},
	} {
		err := artifacts.ValidateKey(tc.key)
		if tc.want == "" {
			if err != nil {
				t.Errorf("ValidateKey(%+v) = %v, want nil", tc.key, err)
			}
			continue
		}
		var ie *artifacts.InputError
		if !errors.As(err, &ie) || !errors.Is(err, artifacts.ErrInvalidInput) {
			t.Errorf("ValidateKey(%+v) = %v, want an InputError", tc.key, err)
			continue
		}
		if ie.Message != tc.want {
			t.Errorf("ValidateKey(%+v) message\n got %s\nwant %s", tc.key, ie.Message, tc.want)
		}
	}
}

func TestValidatePart(t *testing.T) {
	t.Parallel()
	for _, p := range []*v1.Part{{Text: "x"}, {InlineData: &v1.Blob{}}} {
		if err := artifacts.ValidatePart(p); err != nil {
			t.Errorf("ValidatePart(%v) = %v", p, err)
		}
	}
	for _, p := range []*v1.Part{nil, {}, {Thought: true}} {
		if err := artifacts.ValidatePart(p); !errors.Is(err, artifacts.ErrInvalidInput) {
			t.Errorf("ValidatePart(%v) = %v, want ErrInvalidInput", p, err)
		}
	}
}

func TestLimits(t *testing.T) {
	t.Parallel()
	if got := (artifacts.Limits{}).Resolved().MaxSize; got != artifacts.DefaultMaxSize {
		t.Errorf("zero MaxSize resolves to %d, want %d", got, artifacts.DefaultMaxSize)
	}
	l := artifacts.Limits{MaxSize: -1}.Resolved()
	if err := l.CheckSize(1 << 40); err != nil {
		t.Errorf("no cap: %v", err)
	}
	l = artifacts.Limits{MaxSize: 3}.Resolved()
	if err := l.CheckSize(3); err != nil {
		t.Errorf("at the cap: %v", err)
	}
	if err := l.CheckSize(4); !errors.Is(err, artifacts.ErrTooLarge) {
		t.Errorf("past the cap: %v, want ErrTooLarge", err)
	}
}

// TestValidateSessionID: a session id is refused exactly when a store
// could not keep a session-scoped artifact under it.
func TestValidateSessionID(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a", artifacts.MaxFilenameBytes)
	for _, tc := range []struct {
		id   string
		want string // the message; empty when valid
	}{
		{"s", ""},
		{"a/b*c", ""},
		{long, ""},
		{"..", "session_id '..' must not contain traversal segments."},
		{"x/../y", "session_id 'x/../y' must not contain traversal segments."},
		{"/s", "session_id '/s' must not be an absolute path or start with a slash."},
		{long[1:] + "/", "session_id '" + long[1:] + "/' is too long: 257 bytes as stored (each '%', '/', '\\' and control character counts three), over the limit of 255."},
	} {
		err := artifacts.ValidateSessionID(tc.id)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("ValidateSessionID(%.20q) = %q, want %q", tc.id, got, tc.want)
		}
	}
}
