// Package a2a serves apps as A2A agents, as ADK's A2aAgentExecutor does:
// each A2A message runs one invocation of the app in the session named by
// the message's context id, and the invocation's events reach the caller
// as A2A task status and artifact updates converted by ADK's rules.
//
// The package speaks A2A through github.com/a2aproject/a2a-go; it runs
// invocations through an [Invoker], which the server implements, so that
// it never imports the server.
package a2a
