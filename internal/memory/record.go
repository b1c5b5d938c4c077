package memory

import (
	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// Record is an event of a session as a store keeps it: what an [Entry] is
// made of, and the words a search matches it by.
type Record struct {
	// Content is the event's content; it is the session's, not a copy.
	Content *v1.Content
	// Author is the event's author.
	Author string
	// Timestamp is the event's time, in seconds since the epoch.
	Timestamp float64
	// Words are the distinct words of the content's text parts, sorted
	// (see [Words]); never empty.
	Words []string
}

// Records returns the events of sess a search can find, in session order:
// those ADK's add_session_to_memory keeps (content with at least one part)
// whose text parts hold a word. ADK keeps the others too, but its search
// skips an event without a word, so leaving them out changes no answer.
func Records(sess *v1.Session) []Record {
	var out []Record
	var texts []string
	for _, ev := range sess.GetEvents() {
		parts := ev.GetContent().GetParts()
		if len(parts) == 0 {
			continue
		}
		texts = texts[:0]
		for _, p := range parts {
			if t := p.GetText(); t != "" {
				texts = append(texts, t)
			}
		}
		words := Words(texts...)
		if len(words) == 0 {
			continue
		}
		out = append(out, Record{Content: ev.GetContent(), Author: ev.GetAuthor(), Timestamp: ev.GetTimestamp(), Words: words})
	}
	return out
}
