package codeexec

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

func mustNew(t testing.TB, k Kind, opts Options) *Executor {
	t.Helper()
	e, err := New(k, opts)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func text(s string) *v1.Part { return &v1.Part{Text: s} }

func TestBehaviorExtractAndTruncate(t *testing.T) {
	t.Parallel()
	e := mustNew(t, Client, Options{})
	for _, tt := range []struct {
		name      string
		parts     []*v1.Part
		want      *Block
		wantParts []*v1.Part
	}{
		{"text before and after the block", []*v1.Part{text("Plan.\n```python\nprint(1)\n```\nAfter.")},
			&Block{Code: "print(1)", Language: "python"}, []*v1.Part{text("Plan.\n"), ExecutableCodePart("print(1)")}},
		{"tool_code first", []*v1.Part{text("```tool_code\na()\n```\n```python\nb()\n```")},
			&Block{Code: "a()", Language: "tool_code"}, []*v1.Part{ExecutableCodePart("a()")}},
		{"text parts joined by newlines", []*v1.Part{text("```python"), text("x = 1"), text("```")},
			&Block{Code: "x = 1", Language: "python"}, []*v1.Part{ExecutableCodePart("x = 1")}},
		{"executable code part without a result", []*v1.Part{text("a"), ExecutableCodePart("run()"), text("b")},
			&Block{Code: "run()", Language: "python"}, []*v1.Part{text("a"), ExecutableCodePart("run()")}},
		{"executable code with its result is no code",
			[]*v1.Part{ExecutableCodePart("run()"), {CodeExecutionResult: &v1.CodeExecutionResult{Outcome: OutcomeOK}}}, nil, nil},
		{"an empty block is no code", []*v1.Part{text("```python\n\n```")}, nil, nil},
		{"no block", []*v1.Part{text("Just words.")}, nil, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := &v1.Content{Role: "model", Parts: tt.parts}
			before := len(c.Parts)
			got := e.ExtractAndTruncate(c)
			if !cmp.Equal(got, tt.want) {
				t.Fatalf("block = %+v, want %+v", got, tt.want)
			}
			if tt.want == nil {
				if len(c.Parts) != before {
					t.Errorf("parts changed without code: %v", c.Parts)
				}
				return
			}
			if d := cmp.Diff(tt.wantParts, c.Parts, protocmp.Transform()); d != "" {
				t.Errorf("parts (-want +got):\n%s", d)
			}
		})
	}
}

func TestBehaviorResultPart(t *testing.T) {
	t.Parallel()
	files := []File{{Name: "a.png"}, {Name: "b.csv"}}
	for _, tt := range []struct {
		r               *Result
		outcome, output string
	}{
		{&Result{Stdout: "1\n", Stderr: "boom"}, OutcomeFailed, "boom"},
		{&Result{}, OutcomeOK, "Code execution result:\n\n"},
		{&Result{Stdout: "1\n"}, OutcomeOK, "Code execution result:\n1\n\n"},
		{&Result{OutputFiles: files}, OutcomeOK, "Saved artifacts:\n`a.png`,`b.csv`"},
		{&Result{Stdout: "x", OutputFiles: files[:1]}, OutcomeOK, "Code execution result:\nx\n\n\nSaved artifacts:\n`a.png`"},
	} {
		got := ResultPart(tt.r).GetCodeExecutionResult()
		if got.Outcome != tt.outcome || got.Output != tt.output {
			t.Errorf("ResultPart(%+v) = %s %q, want %s %q", tt.r, got.Outcome, got.Output, tt.outcome, tt.output)
		}
	}
}

func TestBehaviorConvertParts(t *testing.T) {
	t.Parallel()
	e := mustNew(t, Client, Options{})
	result := &v1.Part{CodeExecutionResult: &v1.CodeExecutionResult{Outcome: OutcomeOK, Output: "out"}}
	for _, tt := range []struct {
		name string
		in   *v1.Content
		want *v1.Content
	}{
		{"trailing code", &v1.Content{Role: "model", Parts: []*v1.Part{text("a"), ExecutableCodePart("x()")}},
			&v1.Content{Role: "model", Parts: []*v1.Part{text("a"), text("```tool_code\nx()\n```")}}},
		{"lone result", &v1.Content{Role: "model", Parts: []*v1.Part{result}},
			&v1.Content{Role: "user", Parts: []*v1.Part{text("```tool_output\nout\n```")}}},
		{"result among parts stays", &v1.Content{Role: "model", Parts: []*v1.Part{text("a"), result}},
			&v1.Content{Role: "model", Parts: []*v1.Part{text("a"), result}}},
	} {
		in := proto.CloneOf(tt.in)
		got := e.ConvertParts(tt.in)
		if d := cmp.Diff(tt.want, got, protocmp.Transform()); d != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, d)
		}
		if d := cmp.Diff(in, tt.in, protocmp.Transform()); d != "" {
			t.Errorf("%s: the input changed:\n%s", tt.name, d)
		}
	}
}

func TestCheckResult(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		r    *Result
		want string
	}{
		{&Result{Stdout: "ok", OutputFiles: []File{{Name: "a.png", MimeType: "image/png"}}}, ""},
		{&Result{Stdout: strings.Repeat("x", MaxOutputBytes+1)}, "at most"},
		{&Result{Stderr: "\xff"}, "UTF-8"},
		{&Result{OutputFiles: make([]File, MaxOutputFiles+1)}, "at most 32 output files"},
		{&Result{OutputFiles: []File{{Name: "a/b", MimeType: "x/y"}}}, "path separator"},
		{&Result{OutputFiles: []File{{Name: "..", MimeType: "x/y"}}}, "not a file name"},
		{&Result{OutputFiles: []File{{Name: "a\nb", MimeType: "x/y"}}}, "control characters"},
		{&Result{OutputFiles: []File{{Name: "a", MimeType: "x/y"}, {Name: "a", MimeType: "x/y"}}}, "appears twice"},
		{&Result{OutputFiles: []File{{Name: "a"}}}, ""},
		{&Result{OutputFiles: []File{{Name: "a", MimeType: "x\n"}}}, "mime_type"},
		{&Result{OutputFiles: []File{{Name: "a", MimeType: "x/y", Content: make([]byte, MaxFileBytes+1)}}}, "content"},
	} {
		err := CheckResult(tt.r)
		if (tt.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("CheckResult = %v, want %q", err, tt.want)
		}
	}
}

// BenchmarkConvertParts is the per-content cost every request of an agent
// with a code executor pays.
func BenchmarkConvertParts(b *testing.B) {
	e := mustNew(b, Client, Options{})
	c := &v1.Content{Role: "model", Parts: []*v1.Part{text("plain answer"), text("more")}}
	b.ReportAllocs()
	for b.Loop() {
		e.ConvertParts(c)
	}
}

// BenchmarkExtractAndTruncate reads the first code block of a long answer.
func BenchmarkExtractAndTruncate(b *testing.B) {
	e := mustNew(b, Client, Options{})
	answer := strings.Repeat("Some reasoning about the data. ", 200) + "\n```python\nprint(sum(range(10)))\n```\nDone."
	b.ReportAllocs()
	for b.Loop() {
		e.ExtractAndTruncate(&v1.Content{Role: "model", Parts: []*v1.Part{text(answer)}})
	}
}

// TestFirstBlockIsADKsMatch: the fast search finds what ADK's whole
// pattern finds.
func TestFirstBlockIsADKsMatch(t *testing.T) {
	t.Parallel()
	e := mustNew(t, Client, Options{CodeBlockDelimiters: []Delimiters{{"```python\n", "\n```"}, {"<c>", "</c>|;;"}, {"a+b", "b"}}})
	for _, in := range []string{
		"", "no code", "```python\nx\n```", "pre ```python\nx\n``` post ```python\ny\n```",
		"<c>one</c>", "<c>one;;two</c>", "```python\nunclosed <c>later</c>", "aab x b", "ab", "```python\n\n```",
	} {
		p, o, c, ok := e.firstBlock(in)
		m := e.block.FindStringSubmatch(in)
		if (m != nil) != ok || (ok && (p != m[1] || o != m[2] || c != m[3])) {
			t.Errorf("%q: fast = %q %q %q %v, pattern = %q", in, p, o, c, ok, m)
		}
	}
}
