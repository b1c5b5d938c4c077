package contents

import (
	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// contentList is the request contents being assembled, with the part flags
// of each, so that later steps need not read the parts of plain contents
// again.
type contentList struct {
	// keepClientIDs skips clearing engine-made ids (Options.KeepClientIDs).
	keepClientIDs bool
	contents      []*v1.Content
	flags         []partFlags // flags[i] describes contents[i]
	all           partFlags   // the union of flags
	// responses counts the contents holding function responses.
	responses int
	// hasNil is set once a nil content, standing for an event without
	// content, has been added.
	hasNil bool
}

func newContentList(capacity int) contentList {
	return contentList{
		contents: make([]*v1.Content, 0, capacity),
		flags:    make([]partFlags, 0, capacity),
	}
}

// addEvent adds the content of an event written by author, retold as user
// context when author is another agent.
func (l *contentList) addEvent(author string, c *v1.Content, f partFlags, agentName string) {
	if isOtherAgent(agentName, author) {
		var keep bool
		if c, keep = presentOtherAgent(author, c); !keep {
			return
		}
		f = 0
	}
	l.add(c, f)
}

func (l *contentList) add(c *v1.Content, f partFlags) {
	l.contents = append(l.contents, c)
	l.flags = append(l.flags, f)
	l.all |= f
	if f&hasResponse != 0 {
		l.responses++
	}
	if c == nil {
		l.hasNil = true
	}
}

// finish pairs function responses with their calls, clears engine-made ids
// and returns the contents.
func (l *contentList) finish() ([]*v1.Content, error) {
	if l.all&hasResponse != 0 {
		if err := l.rearrangeLatestResponse(); err != nil {
			return nil, err
		}
		l.rearrangeAsyncResponses()
	}
	if l.all&hasClientID != 0 && !l.keepClientIDs {
		l.clearClientIDs()
	}
	if l.hasNil {
		l.dropNil()
	}
	return l.contents, nil
}

func (l *contentList) dropNil() {
	kept := l.contents[:0]
	for _, c := range l.contents {
		if c != nil {
			kept = append(kept, c)
		}
	}
	clear(l.contents[len(kept):])
	l.contents = kept
	l.flags = nil
}
