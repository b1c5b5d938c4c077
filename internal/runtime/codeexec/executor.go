// Package codeexec is ADK's code execution for LLM agents: the executors an
// agent declares (BuiltInCodeExecutor, whose code the model runs, and
// ClientCodeExecutor, whose code the caller runs), the code blocks read from
// a model's answer, the parts that carry code and its result, and the state
// ADK keeps for them (CodeExecutorContext).
package codeexec

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// Kind is the kind of a code executor.
type Kind int

// The executor kinds, by ADK's class names.
const (
	// BuiltIn is ADK's BuiltInCodeExecutor: Gemini runs the code itself.
	BuiltIn Kind = iota + 1
	// Client is a BaseCodeExecutor whose code runs in the caller's
	// process, reached over Connect.
	Client
)

// String returns ADK's class name of the kind, as an Agent Config names it.
func (k Kind) String() string {
	switch k {
	case BuiltIn:
		return "BuiltInCodeExecutor"
	case Client:
		return "ClientCodeExecutor"
	}
	return "unknown"
}

// Delimiters enclose a code block or a code execution result.
type Delimiters struct {
	Open, Close string
}

// Bounds of an executor's declaration.
const (
	// MaxDelimiterPairs bounds code_block_delimiters.
	MaxDelimiterPairs = 16
	// MaxDelimiterBytes bounds each delimiter.
	MaxDelimiterBytes = 64
	// MaxErrorRetryAttempts bounds error_retry_attempts.
	MaxErrorRetryAttempts = 100
)

// DefaultCodeBlockDelimiters are ADK's code_block_delimiters.
func DefaultCodeBlockDelimiters() []Delimiters {
	return []Delimiters{{"```tool_code\n", "\n```"}, {"```python\n", "\n```"}}
}

// DefaultExecutionResultDelimiters are ADK's execution_result_delimiters.
var DefaultExecutionResultDelimiters = Delimiters{"```tool_output\n", "\n```"}

// DefaultErrorRetryAttempts is ADK's error_retry_attempts.
const DefaultErrorRetryAttempts = 2

// Options are the fields of ADK's BaseCodeExecutor. Nil or zero fields take
// ADK's defaults in [New].
type Options struct {
	// OptimizeDataFile extracts the CSV files of the request for the code
	// (ADK's optimize_data_file). Default false.
	OptimizeDataFile bool
	// Stateful runs every block of the session with the same execution id,
	// the session's id. Default false.
	Stateful bool
	// ErrorRetryAttempts is how many consecutive failed runs of one
	// invocation are sent back to the model; nil means 2.
	ErrorRetryAttempts *int
	// CodeBlockDelimiters find the code blocks of an answer; they are
	// regular expressions, as ADK joins them into one. Nil means ADK's.
	CodeBlockDelimiters []Delimiters
	// ExecutionResultDelimiters enclose a result sent back to the model;
	// nil means ADK's.
	ExecutionResultDelimiters *Delimiters
}

// Executor is one agent's code executor. It is immutable and safe for
// concurrent use.
type Executor struct {
	kind             Kind
	optimizeDataFile bool
	stateful         bool
	retries          int
	blocks           []Delimiters
	results          Delimiters
	// block finds the first code block of an answer's text as ADK's
	// pattern does; open and closing find its delimiters, the fast way to
	// the same match.
	block, open, closing *regexp.Regexp
}

// New validates opts and returns the executor of kind k.
func New(k Kind, opts Options) (*Executor, error) {
	if k != BuiltIn && k != Client {
		return nil, errors.New("codeexec: unknown executor kind")
	}
	e := &Executor{kind: k, optimizeDataFile: opts.OptimizeDataFile, stateful: opts.Stateful,
		retries: DefaultErrorRetryAttempts, blocks: DefaultCodeBlockDelimiters(), results: DefaultExecutionResultDelimiters}
	if opts.ErrorRetryAttempts != nil {
		n := *opts.ErrorRetryAttempts
		if n < 0 || n > MaxErrorRetryAttempts {
			return nil, fmt.Errorf("error_retry_attempts: want 0 to %d, got %d", MaxErrorRetryAttempts, n)
		}
		e.retries = n
	}
	if opts.CodeBlockDelimiters != nil {
		if len(opts.CodeBlockDelimiters) > MaxDelimiterPairs {
			return nil, fmt.Errorf("code_block_delimiters: at most %d pairs", MaxDelimiterPairs)
		}
		for i, d := range opts.CodeBlockDelimiters {
			if err := checkDelimiters(d); err != nil {
				return nil, fmt.Errorf("code_block_delimiters[%d]: %w", i, err)
			}
		}
		e.blocks = append([]Delimiters(nil), opts.CodeBlockDelimiters...)
	}
	if opts.ExecutionResultDelimiters != nil {
		if err := checkDelimiters(*opts.ExecutionResultDelimiters); err != nil {
			return nil, fmt.Errorf("execution_result_delimiters: %w", err)
		}
		e.results = *opts.ExecutionResultDelimiters
	}
	if len(e.blocks) > 0 {
		var err error
		if e.block, e.open, e.closing, err = blockPatterns(e.blocks); err != nil {
			return nil, fmt.Errorf("code_block_delimiters: %w", err)
		}
	}
	return e, nil
}

func checkDelimiters(d Delimiters) error {
	for _, s := range []string{d.Open, d.Close} {
		if len(s) > MaxDelimiterBytes {
			return fmt.Errorf("a delimiter is longer than %d bytes", MaxDelimiterBytes)
		}
	}
	if d.Open == "" || d.Close == "" {
		return errors.New("want two non-empty delimiters")
	}
	return nil
}

// blockPatterns returns ADK's pattern of the first code block (the
// delimiters are alternatives of a regular expression, as ADK writes them
// unescaped) and the patterns of the leading and trailing delimiters.
func blockPatterns(ds []Delimiters) (block, open, closing *regexp.Regexp, err error) {
	opens := make([]string, len(ds))
	closings := make([]string, len(ds))
	for i, d := range ds {
		opens[i], closings[i] = d.Open, d.Close
	}
	o, c := strings.Join(opens, "|"), strings.Join(closings, "|")
	if block, err = regexp.Compile(`(?s)^(?P<prefix>.*?)(` + o + `)(?P<code>.*?)(` + c + `)(?P<suffix>.*?)$`); err != nil {
		return nil, nil, nil, err
	}
	if open, err = regexp.Compile(`(?s)` + o); err != nil {
		return nil, nil, nil, err
	}
	if closing, err = regexp.Compile(`(?s)` + c); err != nil {
		return nil, nil, nil, err
	}
	return block, open, closing, nil
}

// Kind returns the executor's kind.
func (e *Executor) Kind() Kind { return e.kind }

// Stateful reports whether the blocks of a session share an execution id.
func (e *Executor) Stateful() bool { return e.stateful }

// OptimizeDataFile reports whether the request's data files go to the code.
func (e *Executor) OptimizeDataFile() bool { return e.optimizeDataFile }

// ErrorRetryAttempts is how many consecutive failures the model may see.
func (e *Executor) ErrorRetryAttempts() int { return e.retries }

// CodeBlockDelimiters returns the delimiters of code blocks.
func (e *Executor) CodeBlockDelimiters() []Delimiters { return e.blocks }

// ExecutionResultDelimiters returns the delimiters of results.
func (e *Executor) ExecutionResultDelimiters() Delimiters { return e.results }
