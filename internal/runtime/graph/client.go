package graph

import (
	"context"
	"fmt"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// Call is one attempt of a function node, sent to the client.
type Call struct {
	Function     string
	Workflow     string
	Node         string
	Path         string
	InvocationID string
	Input        *structpb.Value // nil: no input
	State        *structpb.Struct
	// Attempt is 1 for the first attempt.
	Attempt int
	// ResumeInputs are the user's answers by interrupt id, for a node run
	// again after it was resumed.
	ResumeInputs *structpb.Struct
	// SessionID and UserID name the invocation's session.
	SessionID, UserID string
	// Events returns the session's events as the node's invocation sees
	// them (shared: not to be modified).
	Events func() []*v1.Event
	// RunChild runs a dynamic child of the node (ADK's ctx.run_node) while
	// the call runs, and returns when the child finished. A failure the
	// calling node sees is a [*ChildError]; any other error (the run was
	// cancelled) ends the call too. Safe for concurrent use.
	RunChild func(ctx context.Context, req *ChildRequest) (*ChildResult, error)
}

// Result is what a function node returned.
type Result struct {
	Output        *structpb.Value // nil: none
	StateDelta    *structpb.Struct
	Route         *structpb.Value // nil: none
	RequestInputs []*RequestInput
}

// RequestInput asks the user for input (ADK's RequestInput).
type RequestInput struct {
	// InterruptID is made (a uuid4) when empty.
	InterruptID    string
	Message        string
	Payload        *structpb.Value
	ResponseSchema *structpb.Value
}

// NodeError is the exception a function node raised: Type is its class
// name, which a retry_config's exceptions filter on.
type NodeError struct {
	Type    string
	Message string
	// StateDelta holds the state changes the node made before it raised;
	// they go with its error event, as ADK's pending changes do.
	StateDelta *structpb.Struct
	// reported is set when an event reported the failure already.
	reported bool
}

func (e *NodeError) Error() string {
	if e.Message == "" {
		return e.Type
	}
	return e.Type + ": " + e.Message
}

// Runner runs function nodes in the client; the invocation's client
// channel implements it.
type Runner interface {
	RunNode(ctx context.Context, call *Call) (*Result, error)
}

// ErrNoNodeRunner is the error (NODE_NOT_DECLARED) of a function node in
// an invocation whose client cannot run it.
func ErrNoNodeRunner(workflow, node string) error {
	return &runtime.Error{Code: runtime.CodeFailedPrecondition, Reason: v1.ErrorReason_NODE_NOT_DECLARED.String(),
		Message: fmt.Sprintf("workflow %s: node %s runs a function of the client's, and the invocation has no client that declared it", workflow, node)}
}
