package compaction

import (
	"context"
	"strconv"
	"strings"
	"unicode/utf8"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/runtime/pyfmt"
)

// promptTemplate2x is ADK 2.x's LlmEventSummarizer default prompt; unlike
// 1.x's, its line breaks are real ones.
const promptTemplate2x = "The following is a conversation history between a user and an AI agent. " +
	"It may or may not start from a compacted history. Please identify and reiterate the user request, " +
	"summarize the context so far, focusing on key decisions made and information obtained, as well as any " +
	"unresolved questions or tasks. CRITICAL INSTRUCTIONS: 1. Explicitly identify and state the primary " +
	"language used by the user at the top of your summary (e.g., \"Conversation Language: English\"). " +
	"2. If the agent called any tools, accurately list the exact tool names used to maintain tool grounding. " +
	"The rest of the summary should be concise and capture the essence of the interaction.\n\n"

// maxToolContent2x caps, in characters, how much of each tool call's
// arguments and each tool response the 2.x prompt carries.
const maxToolContent2x = 2000

// credentialRequest names ADK's credential request; its events carry the
// user's credential and stay out of the 2.x prompt.
const credentialRequest = "adk_request_credential"

// Prompt2x returns ADK 2.x's summarizer prompt for events, one line per
// item: "<author>: <text>", "<author> (thought): <text>" (not for a
// summary's own thoughts), "<author> called tool: <name>(<args>)" and
// "Tool response from <name>: <response>", with args and responses printed
// as Python prints a dict and cut at 2,000 characters. Credential requests
// are left out.
func Prompt2x(events []*v1.Event) string {
	var b strings.Builder
	b.WriteString(promptTemplate2x)
	first := true
	line := func() *strings.Builder {
		if !first {
			b.WriteByte('\n')
		}
		first = false
		return &b
	}
	var repr []byte
	for _, e := range events {
		parts := e.GetContent().GetParts()
		if len(parts) == 0 || isCredentialRequest(parts) {
			continue
		}
		summary := isSummary(e)
		for _, p := range parts {
			switch {
			case p.GetThought() && p.GetText() != "":
				if !summary {
					line().WriteString(e.GetAuthor() + " (thought): " + p.GetText())
				}
			case p.GetText() != "":
				line().WriteString(e.GetAuthor() + ": " + p.GetText())
			}
			if fc := p.GetFunctionCall(); fc != nil {
				repr = pyfmt.AppendStructReprOrdered(repr[:0], fc.GetArgs(), fc.GetKeyOrder())
				line().WriteString(e.GetAuthor() + " called tool: " + fc.GetName() + "(" + truncate2x(string(repr)) + ")")
			}
			if fr := p.GetFunctionResponse(); fr != nil {
				repr = pyfmt.AppendStructRepr(repr[:0], fr.GetResponse())
				line().WriteString("Tool response from " + fr.GetName() + ": " + truncate2x(string(repr)))
			}
		}
	}
	return b.String()
}

func isCredentialRequest(parts []*v1.Part) bool {
	for _, p := range parts {
		if p.GetFunctionCall().GetName() == credentialRequest || p.GetFunctionResponse().GetName() == credentialRequest {
			return true
		}
	}
	return false
}

// truncate2x cuts s after maxToolContent2x characters (code points, as
// Python counts them), saying how many it dropped.
func truncate2x(s string) string {
	n := utf8.RuneCountInString(s)
	if n <= maxToolContent2x {
		return s
	}
	cut := 0
	for i := 0; i < maxToolContent2x; i++ {
		_, size := utf8.DecodeRuneInString(s[cut:])
		cut += size
	}
	return s[:cut] + "... [truncated " + strconv.Itoa(n-maxToolContent2x) + " chars]"
}

// SummarizeWith is [Summarize] with the prompt that prompt returns for the
// events, e.g. [Prompt2x].
func SummarizeWith(ctx context.Context, model models.Model, events []*v1.Event, prompt func([]*v1.Event) string) (*v1.Event, error) {
	return summarize(ctx, model, events, prompt)
}
