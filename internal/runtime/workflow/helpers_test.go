package workflow_test

import (
	"iter"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

type structpbStruct = structpb.Struct

func strValue(s string) *structpb.Value { return structpb.NewStringValue(s) }

// placeholder is a root the harness is built with before the real tree.
type placeholder struct{}

func (*placeholder) Name() string                       { return "placeholder" }
func (*placeholder) Description() string                { return "" }
func (*placeholder) SubAgents() []runtime.Agent         { return nil }
func (*placeholder) Callbacks() *runtime.AgentCallbacks { return nil }
func (*placeholder) Run(*runtime.InvocationContext) iter.Seq2[*v1.Event, error] {
	return func(func(*v1.Event, error) bool) {}
}
