package contents

import (
	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// transcriptBuffer joins consecutive audio transcriptions into one content,
// as ADK does for events that carry a transcription instead of content.
type transcriptBuffer struct {
	input, output string
}

// take handles the content-less event events[i]. It returns the joined
// transcription content once the run of same-kind transcriptions ends
// (input as role "user", output as role "model"), or false while the next
// event continues the run. An event with no transcription text yields a nil
// content, which stands for "no content".
func (b *transcriptBuffer) take(events []*v1.Event, i int) (*v1.Content, bool) {
	e := events[i]
	var next *v1.Event
	if i+1 < len(events) {
		next = events[i+1]
	}
	if t := e.GetInputTranscription().GetText(); t != "" {
		b.input += t
		if next.GetInputTranscription().GetText() != "" {
			return nil, false
		}
		c := textContent("user", b.input)
		b.input = ""
		return c, true
	}
	if t := e.GetOutputTranscription().GetText(); t != "" {
		b.output += t
		if next.GetOutputTranscription().GetText() != "" {
			return nil, false
		}
		c := textContent("model", b.output)
		b.output = ""
		return c, true
	}
	return nil, true
}

func textContent(role, text string) *v1.Content {
	return &v1.Content{Role: role, Parts: []*v1.Part{{Text: text}}}
}
