package config

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentsvc/agentsvc/internal/runtime/codeexec"
)

func TestLoadCodeExecutor(t *testing.T) {
	t.Parallel()
	a, err := buildRootOf(t, "coder", `name: coder
model: m
code_executor:
  name: ClientCodeExecutor
  args:
    stateful: true
    optimize_data_file: true
    error_retry_attempts: 5
    code_block_delimiters: [["<code>\n", "\n</code>"]]
    execution_result_delimiters: ["<out>\n", "\n</out>"]
`)
	if err != nil {
		t.Fatal(err)
	}
	e := a.Config().CodeExecutor
	if e.Kind() != codeexec.Client || !e.Stateful() || !e.OptimizeDataFile() || e.ErrorRetryAttempts() != 5 ||
		!cmp.Equal(e.CodeBlockDelimiters(), []codeexec.Delimiters{{Open: "<code>\n", Close: "\n</code>"}}) ||
		e.ExecutionResultDelimiters() != (codeexec.Delimiters{Open: "<out>\n", Close: "\n</out>"}) {
		t.Errorf("executor = %+v", e)
	}
	b, err := buildRootOf(t, "coder", "name: calc\nmodel: m\ncode_executor: {name: BuiltInCodeExecutor}\n")
	if err != nil {
		t.Fatal(err)
	}
	if e := b.Config().CodeExecutor; e.Kind() != codeexec.BuiltIn || e.ErrorRetryAttempts() != 2 ||
		!cmp.Equal(e.CodeBlockDelimiters(), codeexec.DefaultCodeBlockDelimiters()) {
		t.Errorf("built-in executor = %+v, want ADK's defaults", e)
	}
}

func TestLoadCodeExecutorErrors(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ yaml, want string }{
		{"code_executor: {name: UnsafeLocalCodeExecutor}", "coder/root_agent.yaml: code_executor.name: want BuiltInCodeExecutor or ClientCodeExecutor"},
		{"code_executor: {name: ClientCodeExecutor, args: {timeout_seconds: 3}}", "code_executor.args.timeout_seconds: unknown argument"},
		{"code_executor: {name: ClientCodeExecutor, kind: x}", "code_executor.kind: unknown field"},
		{"code_executor: {name: ClientCodeExecutor, args: {stateful: 1}}", "code_executor.args.stateful: want true or false"},
		{"code_executor: {name: ClientCodeExecutor, args: {error_retry_attempts: -1}}", "code_executor.args: error_retry_attempts: want 0 to 100"},
		{"code_executor: {name: ClientCodeExecutor, args: {error_retry_attempts: 1.5}}", "code_executor.args.error_retry_attempts: want an integer"},
		{"code_executor: {name: ClientCodeExecutor, args: {code_block_delimiters: [[a]]}}", "code_executor.args.code_block_delimiters: [0]: want [leading, trailing]"},
		{"code_executor: {name: ClientCodeExecutor, args: {code_block_delimiters: [['x)', 'y']]}}", "code_executor.args: code_block_delimiters: error parsing regexp"},
		{"code_executor: {name: ClientCodeExecutor, args: {execution_result_delimiters: ['', x]}}", "execution_result_delimiters: want two non-empty delimiters"},
	} {
		_, err := buildRootOf(t, "coder", "name: coder\nmodel: m\n"+tt.yaml+"\n")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.yaml, err, tt.want)
		}
	}
	_, err := buildRootOf(t, "coder", "name: seq\nagent_class: SequentialAgent\ncode_executor: {name: BuiltInCodeExecutor}\n")
	if err == nil || !strings.Contains(err.Error(), "code_executor") {
		t.Errorf("workflow agent: err = %v, want code_executor refused", err)
	}
}
