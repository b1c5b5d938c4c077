package planners_test

import (
	"testing"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/planners"
)

// BenchmarkPlanReActResponse: one answer of a planning step.
func BenchmarkPlanReActResponse(b *testing.B) {
	parts := []*v1.Part{text("/*PLANNING*/\n1. Load the data\n2. Average it\n"), text("/*ACTION*/\n"), call("load"), call("avg")}
	b.ReportAllocs()
	for b.Loop() {
		planners.PlanReAct{}.ProcessResponse(runtime.Behavior1x, parts)
	}
}

// BenchmarkPlanReActRequest: a request with 200 contents, one in ten
// holding a thought.
func BenchmarkPlanReActRequest(b *testing.B) {
	list := make([]*v1.Content, 200)
	for i := range list {
		list[i] = &v1.Content{Role: "user", Parts: []*v1.Part{text("q")}}
		if i%10 == 0 {
			list[i] = &v1.Content{Role: "model", Parts: []*v1.Part{thought("/*PLANNING*/p"), call("f")}}
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		planners.PlanReAct{}.ProcessRequest(&v1.LlmRequest{Contents: list})
	}
}
