// Package instructions fills an agent's instruction template from session
// state and artifacts, as ADK's inject_session_state does.
package instructions

import (
	"context"
	"fmt"
	"strings"

	"google.golang.org/protobuf/types/known/structpb"

	"github.com/agentsvc/agentsvc/internal/runtime/pyfmt"
)

// StateFunc returns the session state value stored under key (prefixed keys
// such as "app:x" included) and whether the key exists. A stored null may be
// returned as a null value or as a nil pointer.
type StateFunc func(key string) (*structpb.Value, bool)

// ArtifactLoader loads the artifacts that {artifact.name} placeholders insert.
// Implementations must be safe for concurrent use if the caller injects
// concurrently.
type ArtifactLoader interface {
	// LoadArtifactText returns the text to insert for the artifact called
	// name and true, or false when no such artifact exists. An error aborts
	// the injection.
	LoadArtifactText(ctx context.Context, name string) (text string, found bool, err error)
}

const artifactPrefix = "artifact."

// Inject returns template with its placeholders filled in, following ADK:
//
//   - A placeholder is a run of '{', then text without braces, then a run of
//     '}' (the pattern {+[^{}]*}+), so "{{x}}" is one placeholder for x.
//   - The text is trimmed of whitespace; a trailing '?' marks it optional.
//   - "artifact.f" inserts the text of artifact f from artifacts. A missing
//     artifact is an error ([ErrArtifactNotFound]) unless optional; a nil
//     artifacts is always an error ([ErrNoArtifactService]).
//   - Otherwise the text must be an identifier, optionally prefixed "app:",
//     "user:" or "temp:"; anything else is left verbatim, braces included.
//     The state value is inserted as Python's str() would print it, with
//     null inserted as "". A missing key is an error
//     ([ErrContextVariableNotFound]) unless optional, when it inserts "".
//
// A template without '{' is returned as is, and a template whose
// placeholders are all left verbatim is returned without allocating. A nil
// state has no keys. Inject is safe for concurrent use when state and
// artifacts are.
func Inject(ctx context.Context, template string, state StateFunc, artifacts ArtifactLoader) (string, error) {
	open := strings.IndexByte(template, '{')
	if open < 0 {
		return template, nil
	}
	var out []byte // stays nil until a placeholder is replaced
	flushed := 0   // template[:flushed] is already in out
	n := len(template)
	for open >= 0 {
		textStart := open
		for textStart < n && template[textStart] == '{' {
			textStart++
		}
		textEnd := textStart
		for textEnd < n && template[textEnd] != '{' && template[textEnd] != '}' {
			textEnd++
		}
		if textEnd == n {
			break
		}
		if template[textEnd] == '{' {
			// No placeholder starts in this run of '{'; the next one may.
			open = textEnd
			continue
		}
		end := textEnd
		for end < n && template[end] == '}' {
			end++
		}
		p := parsePlaceholder(template[textStart:textEnd])
		if p.kind != keepVerbatim {
			if out == nil {
				out = make([]byte, 0, n+64)
			}
			out = append(out, template[flushed:open]...)
			var err error
			out, err = p.appendValue(ctx, out, state, artifacts)
			if err != nil {
				return "", err
			}
			flushed = end
		}
		next := strings.IndexByte(template[end:], '{')
		if next < 0 {
			break
		}
		open = end + next
	}
	if out == nil {
		return template, nil
	}
	return string(append(out, template[flushed:]...)), nil
}

type placeholderKind int

const (
	keepVerbatim placeholderKind = iota
	stateValue
	artifactText
)

type placeholder struct {
	kind     placeholderKind
	name     string
	optional bool
}

// parsePlaceholder classifies the text between the braces.
func parsePlaceholder(text string) placeholder {
	name := pyfmt.TrimSpace(text)
	optional := false
	if strings.HasSuffix(name, "?") {
		optional = true
		name = name[:len(name)-1]
	}
	if strings.HasPrefix(name, artifactPrefix) {
		return placeholder{kind: artifactText, name: name[len(artifactPrefix):], optional: optional}
	}
	if !isStateName(name) {
		return placeholder{kind: keepVerbatim}
	}
	return placeholder{kind: stateValue, name: name, optional: optional}
}

// isStateName reports whether name is an identifier, optionally behind one
// of the state scope prefixes.
func isStateName(name string) bool {
	scope, rest, found := strings.Cut(name, ":")
	if !found {
		return pyfmt.IsIdentifier(name)
	}
	switch scope {
	case "app", "user", "temp":
		return !strings.Contains(rest, ":") && pyfmt.IsIdentifier(rest)
	default:
		return false
	}
}

func (p placeholder) appendValue(ctx context.Context, dst []byte, state StateFunc, artifacts ArtifactLoader) ([]byte, error) {
	if p.kind == artifactText {
		if artifacts == nil {
			return nil, ErrNoArtifactService
		}
		text, found, err := artifacts.LoadArtifactText(ctx, p.name)
		if err != nil {
			return nil, fmt.Errorf("instructions: load artifact %q: %w", p.name, err)
		}
		if !found {
			if p.optional {
				return dst, nil
			}
			return nil, &NotFoundError{Name: p.name, Artifact: true}
		}
		return append(dst, text...), nil
	}
	var v *structpb.Value
	found := false
	if state != nil {
		v, found = state(p.name)
	}
	if !found {
		if p.optional {
			return dst, nil
		}
		return nil, &NotFoundError{Name: p.name}
	}
	if isNull(v) {
		return dst, nil
	}
	return pyfmt.AppendStr(dst, v), nil
}

// isNull reports whether v stands for Python's None.
func isNull(v *structpb.Value) bool {
	switch v.GetKind().(type) {
	case nil, *structpb.Value_NullValue:
		return true
	default:
		return false
	}
}
