package codeexec

import (
	"context"
	"fmt"
	"unicode/utf8"
)

// File is a file given to or written by executed code (ADK's File), its
// content as bytes.
type File struct {
	Name     string
	MimeType string
	Content  []byte
}

// Call is one code block to run (ADK's CodeExecutionInput), as sent to the
// client.
type Call struct {
	InvocationID string
	AgentName    string
	// Language is the block's language in lower case, e.g. "python".
	Language   string
	Code       string
	InputFiles []File
	// ExecutionID is set by a stateful executor: the session's id.
	ExecutionID string
}

// Result is what the code did (ADK's CodeExecutionResult). A non-empty
// Stderr is a failure.
type Result struct {
	Stdout, Stderr string
	OutputFiles    []File
}

// Runner runs code in the caller's process. The service's Connect channel
// to the client implements it alongside [runtime.ClientTools]: an
// invocation whose client tools do not also implement Runner cannot run a
// ClientCodeExecutor. Implementations are safe for concurrent use.
type Runner interface {
	// RunCode sends call to the client and returns its validated result
	// (see [CheckResult]). It returns ctx's error once ctx ends without a
	// result.
	RunCode(ctx context.Context, call *Call) (*Result, error)
}

// DefaultMimeType is the MIME type of a file that names none, as ADK's File
// defaults it.
const DefaultMimeType = "text/plain"

// Bounds of a client's result.
const (
	// MaxOutputBytes bounds stdout and stderr, each.
	MaxOutputBytes = 1 << 20
	// MaxOutputFiles bounds the files of one result.
	MaxOutputFiles = 32
	// MaxFileBytes bounds one output file.
	MaxFileBytes = 8 << 20
	// MaxFileNameBytes bounds a file's name.
	MaxFileNameBytes = 256
	// MaxMimeTypeBytes bounds a file's MIME type.
	MaxMimeTypeBytes = 128
)

// CheckResult validates a client's result: bounded outputs, a bounded
// number of files, each with a plain, unique name of UTF-8 without control
// characters or path separators, a bounded MIME type (empty is ADK's
// default, [DefaultMimeType]), and bounded content.
func CheckResult(r *Result) error {
	if len(r.Stdout) > MaxOutputBytes || len(r.Stderr) > MaxOutputBytes {
		return fmt.Errorf("stdout and stderr must each be at most %d bytes", MaxOutputBytes)
	}
	if !utf8.ValidString(r.Stdout) || !utf8.ValidString(r.Stderr) {
		return fmt.Errorf("stdout and stderr must be UTF-8")
	}
	if len(r.OutputFiles) > MaxOutputFiles {
		return fmt.Errorf("at most %d output files, got %d", MaxOutputFiles, len(r.OutputFiles))
	}
	seen := make(map[string]bool, len(r.OutputFiles))
	for i, f := range r.OutputFiles {
		if err := checkFileName(f.Name); err != nil {
			return fmt.Errorf("output_files[%d].name: %w", i, err)
		}
		if seen[f.Name] {
			return fmt.Errorf("output_files[%d].name: %q appears twice", i, f.Name)
		}
		seen[f.Name] = true
		if len(f.MimeType) > MaxMimeTypeBytes || !printable(f.MimeType) {
			return fmt.Errorf("output_files[%d].mime_type: want a MIME type of at most %d bytes", i, MaxMimeTypeBytes)
		}
		if len(f.Content) > MaxFileBytes {
			return fmt.Errorf("output_files[%d].content: longer than %d bytes", i, MaxFileBytes)
		}
	}
	return nil
}

func checkFileName(name string) error {
	switch {
	case name == "" || len(name) > MaxFileNameBytes:
		return fmt.Errorf("want 1 to %d bytes", MaxFileNameBytes)
	case !utf8.ValidString(name) || !printable(name):
		return fmt.Errorf("want UTF-8 without control characters")
	case name == "." || name == "..":
		return fmt.Errorf("%q is not a file name", name)
	}
	for _, r := range name {
		if r == '/' || r == '\\' {
			return fmt.Errorf("%q holds a path separator", name)
		}
	}
	return nil
}

func printable(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return false
		}
	}
	return true
}
