package codeexec

import (
	"strings"

	"google.golang.org/protobuf/proto"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// Outcomes of a code execution result part, as google.genai names them.
const (
	OutcomeOK     = "OUTCOME_OK"
	OutcomeFailed = "OUTCOME_FAILED"
)

// languagePython is the language of the executable code parts ADK builds.
const languagePython = "PYTHON"

// ExecutableCodePart is ADK's build_executable_code_part.
func ExecutableCodePart(code string) *v1.Part {
	return &v1.Part{ExecutableCode: &v1.ExecutableCode{Code: code, Language: languagePython}}
}

// ResultPart is ADK's build_code_execution_result_part: a failure carries
// stderr; a success carries the output and the names of the files saved.
func ResultPart(r *Result) *v1.Part {
	if r.Stderr != "" {
		return &v1.Part{CodeExecutionResult: &v1.CodeExecutionResult{Outcome: OutcomeFailed, Output: r.Stderr}}
	}
	var out []string
	if r.Stdout != "" || len(r.OutputFiles) == 0 {
		out = append(out, "Code execution result:\n"+r.Stdout+"\n")
	}
	if len(r.OutputFiles) > 0 {
		names := make([]string, len(r.OutputFiles))
		for i, f := range r.OutputFiles {
			names[i] = "`" + f.Name + "`"
		}
		out = append(out, "Saved artifacts:\n"+strings.Join(names, ","))
	}
	return &v1.Part{CodeExecutionResult: &v1.CodeExecutionResult{Outcome: OutcomeOK, Output: strings.Join(out, "\n\n")}}
}

// Block is the first code block of an answer.
type Block struct {
	Code string
	// Language is the block's language in lower case: the word after the
	// backticks of its delimiter, or the executable code part's language;
	// "python" otherwise.
	Language string
}

// ExtractAndTruncate is ADK's extract_code_and_truncate_content: the first
// executable code part without a result after it, or else the first code
// block of the text parts joined by newlines, which replaces the parts
// (after the text before it). It returns nil, leaving content as it is,
// when there is no code. content must be the caller's own copy.
func (e *Executor) ExtractAndTruncate(content *v1.Content) *Block {
	parts := content.GetParts()
	if len(parts) == 0 {
		return nil
	}
	for i, p := range parts {
		if p.ExecutableCode != nil && (i == len(parts)-1 || parts[i+1].CodeExecutionResult == nil) {
			content.Parts = parts[:i+1]
			return &Block{Code: p.ExecutableCode.Code, Language: language(strings.ToLower(p.ExecutableCode.Language))}
		}
	}
	var first *v1.Part
	var texts []string
	for _, p := range parts {
		if p.Text == "" {
			continue
		}
		if first == nil {
			first = p
		}
		texts = append(texts, p.Text)
	}
	if first == nil || e.block == nil {
		return nil
	}
	prefix, open, code, ok := e.firstBlock(strings.Join(texts, "\n"))
	if !ok {
		return nil
	}
	if code == "" {
		return nil
	}
	content.Parts = nil
	if prefix != "" {
		head := proto.CloneOf(first)
		head.Text = prefix
		content.Parts = append(content.Parts, head)
	}
	content.Parts = append(content.Parts, ExecutableCodePart(code))
	return &Block{Code: code, Language: language(delimiterLanguage(open))}
}

// firstBlock matches ADK's pattern on text. The first leading delimiter
// with a trailing one after it is that match, found in linear time; only
// when no trailing delimiter follows the first leading one does the whole
// pattern run, for the rare later match that delimiters written as
// overlapping regular expressions allow.
func (e *Executor) firstBlock(text string) (prefix, open, code string, ok bool) {
	if o := e.open.FindStringIndex(text); o != nil {
		if c := e.closing.FindStringIndex(text[o[1]:]); c != nil {
			return text[:o[0]], text[o[0]:o[1]], text[o[1] : o[1]+c[0]], true
		}
	} else {
		return "", "", "", false
	}
	m := e.block.FindStringSubmatch(text)
	if m == nil {
		return "", "", "", false
	}
	return m[1], m[2], m[3], true
}

// delimiterLanguage is the word after the backticks of a delimiter.
func delimiterLanguage(open string) string {
	rest, ok := strings.CutPrefix(open, "```")
	if !ok {
		return ""
	}
	word, _, _ := strings.Cut(rest, "\n")
	return strings.ToLower(strings.TrimSpace(word))
}

func language(l string) string {
	if l == "" || l == "language_unspecified" {
		return "python"
	}
	return l
}

// ConvertParts is ADK's convert_code_execution_parts: a trailing executable
// code part becomes its code between the first code block delimiters, and a
// content of one result part becomes a user content of its output between
// the result delimiters. It returns content itself when nothing changes,
// and a copy otherwise.
func (e *Executor) ConvertParts(content *v1.Content) *v1.Content {
	parts := content.GetParts()
	if len(parts) == 0 {
		return content
	}
	last := parts[len(parts)-1]
	switch {
	case last.ExecutableCode != nil:
		var d Delimiters
		if len(e.blocks) > 0 {
			d = e.blocks[0]
		}
		c := shallowCopy(content)
		c.Parts[len(parts)-1] = &v1.Part{Text: d.Open + last.ExecutableCode.Code + d.Close}
		return c
	case len(parts) == 1 && last.CodeExecutionResult != nil:
		c := shallowCopy(content)
		// An output of None in ADK is an empty text; proto cannot tell
		// an empty output from none, so an empty one keeps its delimiters.
		c.Parts[0] = &v1.Part{Text: e.results.Open + last.CodeExecutionResult.Output + e.results.Close}
		c.Role = "user"
		return c
	}
	return content
}

// shallowCopy copies content and its part list; the parts are shared.
func shallowCopy(c *v1.Content) *v1.Content {
	return &v1.Content{Role: c.Role, Parts: append([]*v1.Part(nil), c.Parts...)}
}
