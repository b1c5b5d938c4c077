// Package runtime is the agent engine: the [Runner], the [InvocationContext]
// that an invocation's agents share, the [Agent] and [Tool] interfaces,
// callbacks and plugins. It behaves as Google ADK's runtime does; the LLM
// agent and its flow live in the llmagent sub-package, workflow agents in the
// workflow sub-package.
//
// Events flow as iterators ([iter.Seq2] of *v1.Event and error) from agents to
// the Runner, which stores every non-partial event in the session before it
// yields it.
package runtime
