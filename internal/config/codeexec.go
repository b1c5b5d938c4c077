package config

import (
	"fmt"
	"math"
	"sort"

	"github.com/agentsvc/agentsvc/internal/runtime/codeexec"
)

// CodeExecutorRef is an LlmAgent's code_executor: ADK's class name, with
// the BaseCodeExecutor fields as args.
type CodeExecutorRef struct {
	Name  string         `yaml:"name"`
	Args  map[string]any `yaml:"args"`
	Extra map[string]any `yaml:",inline"`
}

// codeExecutorKinds are the executors an Agent Config may name.
var codeExecutorKinds = map[string]codeexec.Kind{
	"BuiltInCodeExecutor": codeexec.BuiltIn,
	"ClientCodeExecutor":  codeexec.Client,
}

// buildCodeExecutor reads c's code_executor; nil when there is none.
func buildCodeExecutor(c *AgentConfig) (*codeexec.Executor, error) {
	ref := c.CodeExecutor
	if ref == nil {
		return nil, nil
	}
	fail := func(field string, err error) error { return fmt.Errorf("%s: code_executor%s: %w", c.file, field, err) }
	for k := range ref.Extra {
		return nil, fail("."+k, fmt.Errorf("unknown field"))
	}
	kind, ok := codeExecutorKinds[ref.Name]
	if !ok {
		return nil, fail(".name", fmt.Errorf("want BuiltInCodeExecutor or ClientCodeExecutor, got %q", ref.Name))
	}
	var opts codeexec.Options
	keys := make([]string, 0, len(ref.Args))
	for k := range ref.Args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := ref.Args[k]
		var err error
		switch k {
		case "stateful":
			opts.Stateful, err = boolArg(v)
		case "optimize_data_file":
			opts.OptimizeDataFile, err = boolArg(v)
		case "error_retry_attempts":
			var n int
			n, err = intArg(v)
			opts.ErrorRetryAttempts = &n
		case "code_block_delimiters":
			opts.CodeBlockDelimiters, err = delimiterList(v)
		case "execution_result_delimiters":
			var d codeexec.Delimiters
			d, err = delimiterPair(v)
			opts.ExecutionResultDelimiters = &d
		default:
			err = fmt.Errorf("unknown argument")
		}
		if err != nil {
			return nil, fail(".args."+k, err)
		}
	}
	e, err := codeexec.New(kind, opts)
	if err != nil {
		return nil, fail(".args", err)
	}
	return e, nil
}

func boolArg(v any) (bool, error) {
	b, ok := v.(bool)
	if !ok {
		return false, fmt.Errorf("want true or false")
	}
	return b, nil
}

func intArg(v any) (int, error) {
	switch n := v.(type) {
	case int:
		return n, nil
	case float64:
		if n == math.Trunc(n) && math.Abs(n) <= codeexec.MaxErrorRetryAttempts {
			return int(n), nil
		}
	}
	return 0, fmt.Errorf("want an integer")
}

func delimiterList(v any) ([]codeexec.Delimiters, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("want a list of [leading, trailing] pairs")
	}
	if len(list) > codeexec.MaxDelimiterPairs {
		return nil, fmt.Errorf("at most %d pairs", codeexec.MaxDelimiterPairs)
	}
	out := make([]codeexec.Delimiters, 0, len(list))
	for i, item := range list {
		d, err := delimiterPair(item)
		if err != nil {
			return nil, fmt.Errorf("[%d]: %w", i, err)
		}
		out = append(out, d)
	}
	return out, nil
}

func delimiterPair(v any) (codeexec.Delimiters, error) {
	pair, ok := v.([]any)
	if !ok || len(pair) != 2 {
		return codeexec.Delimiters{}, fmt.Errorf("want [leading, trailing]")
	}
	open, ok1 := pair[0].(string)
	closing, ok2 := pair[1].(string)
	if !ok1 || !ok2 {
		return codeexec.Delimiters{}, fmt.Errorf("want two strings")
	}
	return codeexec.Delimiters{Open: open, Close: closing}, nil
}
