// Package fakegemini is a local HTTP server speaking the Gemini REST API
// (and OpenAI's Chat Completions API, see [Server.EnqueueOpenAI]),
// answering from a script, for tests that run the real genai-based model
// adapter without a network.
//
// # Model API
//
// POST {version}/models/{model}:generateContent answers one
// GenerateContentResponse JSON object. POST
// {version}/models/{model}:streamGenerateContent?alt=sse answers server-sent
// events, one "data: <json>\r\n\r\n" per chunk, as Google does (without
// alt=sse, a JSON array of the chunks). Vertex AI paths
// (/v1beta1/projects/P/locations/L/publishers/google/models/{model}:...) are
// served the same way.
//
// Each request is answered by, in order:
//
//  1. a pending fault (see [Server.FailNext]): the HTTP status with Google's
//     error JSON {"error":{"code":S,"message":"...","status":"NAME"}};
//  2. the head of the request model's queue, then of the global queue
//     (see [Server.Enqueue]);
//  3. the first rule that matches (see [Rule]);
//  4. the default: a text reply "Echo: <last user text>" finished with STOP,
//     with usage metadata (word counts), streamed as two chunks; when the
//     conversation ends with tool results, "Echo: <name> returned <json>".
//
// A queued item or rule answer holding chunks is merged into one response
// for a non-streamed request; one holding a whole response is sent as a
// single chunk to a streamed request. The latency set with
// [Server.SetLatency], plus the item's own delay, is waited before
// answering, without holding any lock; a request whose client goes away
// while waiting gets no answer.
//
// Every request is recorded (see [Request]): model, method, stream flag,
// path, headers without the API key, whether a key came, the parsed JSON
// body, where the answer came from and the time.
//
// # Cached contents
//
// The Caches API the genai SDK calls is served too, on the Gemini API paths
// ({version}/cachedContents[/{id}]) and the Vertex AI ones
// ({version}/projects/P/locations/L/cachedContents[/{id}]): create (POST,
// with a "ttl" such as "600s" or an "expireTime"; an hour without either),
// get, patch (a new ttl or expireTime), delete and list (one page). A cache
// keeps its contents, systemInstruction, tools and toolConfig; its token
// count is the word count of its texts. It expires by the server's clock,
// which runs with the real one until moved forward (see
// [Server.AdvanceClock]); an unknown, deleted or expired cache answers 403
// PERMISSION_DENIED "CachedContent not found (or permission denied)", as
// Gemini does.
//
// A generateContent request naming a live cachedContent is recorded, and
// answered, as the model sees it: the cache's contents before the
// request's, its system instruction, tools and tool config put in. Every
// usage metadata of the answer gets cachedContentTokenCount, the cache's
// token count. A request naming a cache that also sets systemInstruction,
// tools or toolConfig answers 400, and one for another model than the
// cache's answers 400, with Gemini's messages. Cache calls are recorded as
// requests with the method "cachedContents.create" (or get, patch, delete,
// list). The fake does not enforce Gemini's minimum cache size.
//
// # Control API
//
// The same server answers, for tests in another process:
//
//	POST /_fake/script    a Script (below), appended; answers {"responses":N,"rules":M}
//	POST /_fake/reset     forget queues, rules, faults, latency, requests and caches; the clock is real again
//	GET  /_fake/requests  the recorded requests, a JSON array of Request
//	POST /_fake/faults    {"latency":"250ms","fail":{"count":2,"code":503,"message":"overloaded"}}
//	POST /_fake/clock     {"advanceSeconds":601}: move the clock forward; answers {"now":"<RFC 3339>"}
//
// Invalid control requests answer 400 with Google's error JSON.
//
// # Script JSON
//
// A script (the body of POST /_fake/script and of the command's --script
// file) is:
//
//	{
//	  "responses": [
//	    {"model": "gemini-2.5-flash", "response": {"candidates": [...], "usageMetadata": {...}}},
//	    {"chunks": [{"candidates": [...]}, {"candidates": [...]}], "delay": "50ms"},
//	    {"error": {"code": 429, "message": "quota exceeded"}},
//	    {"hang": true},
//	    {"chunks": [{"candidates": [...]}], "forever": true}
//	  ],
//	  "rules": [
//	    {"contains": "weather", "tools": true, "response": {...}},
//	    {"model": "gemini-2.5-pro", "chunks": [...]}
//	  ],
//	  "faults": {"latency": 100, "fail": {"count": 1, "code": 500, "message": "boom"}}
//	}
//
// Each response and rule has exactly one of "response" (a
// GenerateContentResponse object), "chunks" (an array of them), "error"
// ({"code": HTTP status, "message": ..., "status": optional google.rpc name})
// and "hang" (true: never answer, until the client goes away, as a hung
// model). "forever" (with "response" or "chunks") never ends the answer: a
// streamed request gets the chunks over and over, a non-streamed one a
// response whose text never ends, as a model that streams without end;
// clients must cut it off themselves.
// "model" (optional) picks the queue, or restricts a rule to a model; "delay"
// (optional) is a Go duration string or a number of milliseconds. A rule's
// "contains" must be a substring of the last user text (the text parts of the
// last user content that has text) and its "tools", when given, must equal
// whether the request declares tools. Rules are kept; queued responses are
// used once.
package fakegemini
