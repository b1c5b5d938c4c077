// Package loadclient holds what the load and soak commands (agentbench,
// agentsoak) do alike as clients of a running agentsvc: writing the app
// they load, reading the status of a Connect stream, and the percentiles
// of the durations they measure. Its functions are safe for concurrent use.
package loadclient
