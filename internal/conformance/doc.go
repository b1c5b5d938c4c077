// Package conformance answers ADK's conformance protocol: `adk conformance
// test` drives the service over REST and puts `_adk_replay_config`
// ({"dir": case directory, "user_message_index": n, "streaming_mode":
// "none"|"sse"}) in a run's state delta; the invocation's model calls and
// tool calls are then answered from the case's recordings
// (generated-recordings[-sse].yaml, written by ADK's recordings plugin),
// each request checked against the recorded one first, as ADK's replay
// plugin does.
//
// The protocol makes the server read files a request names, so it is off
// unless the service is started with a root directory; a case directory
// must resolve under it.
package conformance
