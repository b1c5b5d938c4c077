package config

import (
	"errors"
	"fmt"
	"time"

	"google.golang.org/protobuf/types/known/structpb"

	"github.com/agentsvc/agentsvc/internal/runtime/graph"
)

// Bounds of a node's fields.
const (
	maxNodeDescription    = 4096
	maxParallelWorkersCap = 64
)

// checkNodeFields checks the fields a node takes from ADK 2.13's BaseNode,
// Node and FunctionNode, with ADK's texts where it has them.
func (n *NodeRef) checkNodeFields() error {
	if len(n.Description) > maxNodeDescription {
		return fmt.Errorf("description: at most %d bytes", maxNodeDescription)
	}
	if err := checkSchemas(n.InputSchema, n.OutputSchema); err != nil {
		return err
	}
	if n.StateSchema != nil {
		// ADK's state_schema is a pydantic model class, which a YAML app
		// cannot name: refused rather than accepted and not enforced.
		return errors.New("state_schema: not supported: ADK's state_schema is a pydantic model class, " +
			"which a YAML workflow cannot name")
	}
	if n.MaxParallelWorkers != nil {
		if !n.ParallelWorker {
			return errors.New("max_parallel_workers: max_parallel_workers can only be set when parallel_worker is True.") //nolint:staticcheck // ST1005: ADK's message, word for word.
		}
		if *n.MaxParallelWorkers < 1 {
			return errors.New("max_parallel_workers: max_parallel_workers must be greater than or equal to 1.") //nolint:staticcheck // ST1005: ADK's message, word for word.
		}
		if *n.MaxParallelWorkers > maxParallelWorkersCap {
			return fmt.Errorf("max_parallel_workers: at most %d", maxParallelWorkersCap)
		}
	}
	if n.ParallelWorker && n.Function == "" && n.ConfigPath == "" {
		return errors.New("parallel_worker: only a function node or a single-turn LlmAgent runs as a parallel worker here")
	}
	if n.RequireConfirmation {
		if n.Function == "" {
			return errors.New("require_confirmation: only a function node asks for a confirmation")
		}
		if !n.RerunOnResume {
			return errors.New("require_confirmation: FunctionNode with require_confirmation requires rerun_on_resume=True. " + //nolint:staticcheck // ST1005: ADK's message, word for word.
				"The node must rerun after confirmation is provided.")
		}
	}
	switch n.ParameterBinding {
	case "":
	case "state":
		if n.Function == "" {
			return errors.New("parameter_binding: only a function node binds parameters")
		}
	case "node_input":
		// Binding parameters from the input's keys is ADK's form for a
		// node used as an agent's tool; the clients pass the input whole.
		return errors.New(`parameter_binding: "node_input" is not supported: a client's function takes the node input ` +
			`whole (and, in Python, its other parameters from state, as ADK's default "state")`)
	default:
		return fmt.Errorf("parameter_binding: %q is not state or node_input", n.ParameterBinding)
	}
	return nil
}

// node is the engine's node for ref, before its kind is set.
func (n *NodeRef) node() *graph.Node {
	g := &graph.Node{Name: n.Name, Description: n.Description, RerunOnResume: n.RerunOnResume,
		Timeout: time.Duration(n.Timeout * float64(time.Second)), WaitForOutput: n.WaitForOutput,
		ParallelWorker: n.ParallelWorker, RequireConfirmation: n.RequireConfirmation}
	if n.MaxParallelWorkers != nil {
		g.MaxParallelWorkers = *n.MaxParallelWorkers
	}
	if n.RetryConfig != nil {
		p, _ := n.RetryConfig.policy()
		g.Retry = &p
	}
	return g
}

// workflowSchemaField reports whether an LlmAgent field is one a Workflow
// takes too (ADK 2.13's BaseNode input_schema and output_schema).
func workflowSchemaField(field string) bool {
	return field == "input_schema" || field == "output_schema"
}

// checkWorkflowSchemas checks a Workflow's input and output schemas: JSON
// schemas, which ADK accepts and does not enforce.
func checkWorkflowSchemas(c *AgentConfig) error {
	return checkSchemas(c.InputSchema, c.OutputSchema)
}

// checkSchemas checks that input and output schemas are JSON.
func checkSchemas(in, out map[string]any) error {
	if _, err := structpb.NewStruct(in); err != nil {
		return fmt.Errorf("input_schema: %w", err)
	}
	if _, err := structpb.NewStruct(out); err != nil {
		return fmt.Errorf("output_schema: %w", err)
	}
	return nil
}
