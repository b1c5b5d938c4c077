// Package adkgo measures adk-go, Google's ADK for Go, on the same scenarios
// as agentsvc's headline benchmarks, so that the two can be compared side
// by side with benchstat (-ignore pkg): the benchmarks have the names of
// agentsvc's in internal/runtime/llmagent.
//
// It is a module of its own, outside agentsvc's: agentsvc's build, lint
// and tidy never see adk-go, and this module never imports agentsvc.
// cmd/adkgoserver serves adk-go's REST API for the load tool.
package adkgo
