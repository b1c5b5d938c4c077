package contents

import (
	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// contentList is the request contents being assembled. The part flags of
// each content are kept only once a step after collection needs them: the
// common history, whose responses already follow their calls, needs only
// their union.
type contentList struct {
	// keepClientIDs skips clearing engine-made ids (Options.KeepClientIDs).
	keepClientIDs bool
	// quoted retells other agents' turns as ADK 2.x does
	// (Options.QuoteOtherAgents).
	quoted bool
	// shared is set when contents is an array others read; see
	// [contentList.own].
	shared   bool
	contents []*v1.Content
	// flags[i] describes contents[i]; nil until [contentList.needFlags].
	flags []partFlags
	all   partFlags // the union of the flags
	// hasNil is set when a nil content, standing for an event without
	// content, has been added.
	hasNil bool
	// paired tells whether the responses are already where the
	// rearrangements would put them.
	paired pairing
}

// newContentList returns a list with room for capacity contents, and one
// more: callers insert an instruction content into the result.
func newContentList(capacity int) contentList {
	return contentList{contents: make([]*v1.Content, 0, capacity+1)}
}

// addEvent adds the content of an event written by author, retold as user
// context when author is another agent.
func (l *contentList) addEvent(author string, c *v1.Content, f partFlags, agentName string) {
	if isOtherAgent(agentName, author) {
		var keep bool
		if c, keep = l.retell(author, c); !keep {
			return
		}
		f = 0
	}
	l.add(c, f)
}

// retell retells another agent's content as user context, in ADK 1.x's
// form or, when l.quoted, 2.x's.
func (l *contentList) retell(author string, c *v1.Content) (*v1.Content, bool) {
	if l.quoted {
		return presentOtherAgentQuoted(author, c)
	}
	return presentOtherAgent(author, c)
}

// add appends c, whose part flags are f.
func (l *contentList) add(c *v1.Content, f partFlags) {
	l.paired.add(l.contents, c, f)
	l.contents = append(l.contents, c)
	l.all |= f
}

// needFlags fills l.flags for the steps that read the flags of each
// content. Scanning again yields the flags the contents were added with,
// but for [hasVisible], which those steps do not read: retold and
// transcribed contents, added with no flags, hold only visible parts.
func (l *contentList) needFlags() {
	if l.flags != nil {
		return
	}
	l.flags = make([]partFlags, len(l.contents))
	for i, c := range l.contents {
		l.flags[i] = scanParts(c)
	}
}

// finish pairs function responses with their calls, clears engine-made ids
// and returns the contents. The list must not be used afterwards.
func (l *contentList) finish() ([]*v1.Content, error) {
	paired := !l.paired.broken
	l.paired.release()
	if l.all&hasResponse != 0 && !paired {
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

// own makes contents a copy of its own if it is shared, before a step
// changes it in place.
func (l *contentList) own() {
	if l.shared {
		l.contents = append(make([]*v1.Content, 0, len(l.contents)+1), l.contents...)
		l.shared = false
	}
}

func (l *contentList) dropNil() {
	l.own()
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
