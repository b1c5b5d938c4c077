package contents

import (
	"slices"
	"sync"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// rearrangeLatestResponse pairs the last content, when it holds function
// responses that do not answer the calls just before it, with its call
// content further back, as ADK's
// _rearrange_events_for_latest_function_response does: everything after the
// call content is dropped, and the responses to that call content's calls
// found in between are merged with the last content into one.
func (l *contentList) rearrangeLatestResponse() error {
	l.needFlags()
	list := l.contents
	n := len(list)
	if n < 2 || l.flags[n-1]&hasResponse == 0 {
		return nil
	}
	last := list[n-1]
	var idBuf [8]string
	ids := appendResponseIDs(idBuf[:0], last)
	if callsAny(list[n-2], ids) {
		return nil
	}

	// As in ADK, the scan goes on after a match, so an earlier content
	// calling the same ids wins.
	callIndex := -1
	for i := n - 2; i >= 0; i-- {
		if l.flags[i]&hasCall == 0 || !callsAny(list[i], ids) {
			continue
		}
		callIndex = i
		callIDs := appendCallIDs(nil, list[i])
		for _, id := range ids {
			if !slices.Contains(callIDs, id) {
				return &MixedFunctionResponsesError{CallIDs: callIDs, ResponseIDs: slices.Clone(ids)}
			}
		}
		ids = callIDs
	}
	if callIndex < 0 {
		return &NoFunctionCallError{ResponseIDs: slices.Clone(ids)}
	}

	group := make([]*v1.Content, 0, n-callIndex)
	merged := l.flags[n-1]
	for i := callIndex + 1; i < n-1; i++ {
		if l.flags[i]&hasResponse != 0 && respondsToAny(list[i], ids) {
			group = append(group, list[i])
			merged |= l.flags[i]
		}
	}
	group = append(group, last)
	l.own()
	list = l.contents
	list[callIndex+1] = mergeResponses(group)
	l.flags[callIndex+1] = merged
	clear(list[callIndex+2:])
	l.contents = list[:callIndex+2]
	l.flags = l.flags[:callIndex+2]
	return nil
}

// rearrangeAsyncResponses places the responses to each call content right
// after it, as ADK's _rearrange_events_for_async_function_responses_in_history
// does: every content holding function responses leaves its place; after
// each call content comes the content holding the latest response to any of
// its calls, or, when those are several contents, their merge. Responses
// that answer no call are dropped.
//
// The common history, where each response already follows its call, is
// kept as is, without copying.
func (l *contentList) rearrangeAsyncResponses() {
	l.needFlags()
	latest := latestIndexPool.Get().(map[string]int)
	defer releaseLatestIndex(latest)
	for i, c := range l.contents {
		if l.flags[i]&hasResponse == 0 {
			continue
		}
		for _, p := range c.GetParts() {
			if fr := p.GetFunctionResponse(); fr != nil {
				latest[fr.GetId()] = i
			}
		}
	}
	w := reorderWriter{srcContents: l.contents, srcFlags: l.flags}
	for i, c := range l.contents {
		f := l.flags[i]
		if f&hasResponse != 0 {
			continue
		}
		w.emit(c, f)
		if f&hasCall == 0 {
			continue
		}
		var indexBuf [4]int
		indexes := indexBuf[:0]
		for _, p := range c.GetParts() {
			fc := p.GetFunctionCall()
			if fc == nil {
				continue
			}
			if j, ok := latest[fc.GetId()]; ok && !slices.Contains(indexes, j) {
				indexes = append(indexes, j)
			}
		}
		switch len(indexes) {
		case 0:
		case 1:
			j := indexes[0]
			w.emit(l.contents[j], l.flags[j])
		default:
			slices.Sort(indexes)
			group := make([]*v1.Content, len(indexes))
			var merged partFlags
			for k, j := range indexes {
				group[k] = l.contents[j]
				merged |= l.flags[j]
			}
			w.emit(mergeResponses(group), merged)
		}
	}
	l.contents, l.flags = w.result()
}

// latestIndexPool recycles the index of latest responses between builds; a
// map keeps its capacity when cleared, so the steady state allocates none.
var latestIndexPool = sync.Pool{New: func() any { return make(map[string]int) }}

// maxPooledIndex bounds the maps kept for reuse, so that one huge history
// does not pin its index for good.
const maxPooledIndex = 4096

func releaseLatestIndex(m map[string]int) {
	if len(m) > maxPooledIndex {
		return
	}
	clear(m)
	latestIndexPool.Put(m)
}

// reorderWriter builds a reordered copy of a list, allocating only once the
// order departs from the original.
type reorderWriter struct {
	srcContents []*v1.Content
	srcFlags    []partFlags
	// same counts the leading source entries that are the output while
	// contents is nil.
	same     int
	contents []*v1.Content // the output once it differs from the source
	flags    []partFlags
}

func (w *reorderWriter) emit(c *v1.Content, f partFlags) {
	if w.contents == nil {
		if w.same < len(w.srcContents) && w.srcContents[w.same] == c {
			w.same++
			return
		}
		n := len(w.srcContents) + 1
		w.contents = append(make([]*v1.Content, 0, n), w.srcContents[:w.same]...)
		w.flags = append(make([]partFlags, 0, n), w.srcFlags[:w.same]...)
	}
	w.contents = append(w.contents, c)
	w.flags = append(w.flags, f)
}

func (w *reorderWriter) result() ([]*v1.Content, []partFlags) {
	if w.contents == nil {
		return w.srcContents[:w.same], w.srcFlags[:w.same]
	}
	return w.contents, w.flags
}

// mergeResponses merges contents of function responses into one, as ADK's
// _merge_function_response_events does: it starts from the first content's
// parts; a later response whose id is already present replaces that part,
// any other later part is appended. One content is returned as is.
func mergeResponses(group []*v1.Content) *v1.Content {
	first := group[0]
	if len(group) == 1 {
		return first
	}
	parts := slices.Clone(first.GetParts())
	for _, c := range group[1:] {
		for _, p := range c.GetParts() {
			if fr := p.GetFunctionResponse(); fr != nil {
				if j := lastResponseIndex(parts, fr.GetId()); j >= 0 {
					parts[j] = p
					continue
				}
			}
			parts = append(parts, p)
		}
	}
	return &v1.Content{Role: first.GetRole(), Parts: parts}
}

// lastResponseIndex returns the index of the last function response part
// with the given id, or -1.
func lastResponseIndex(parts []*v1.Part, id string) int {
	for i := len(parts) - 1; i >= 0; i-- {
		if fr := parts[i].GetFunctionResponse(); fr != nil && fr.GetId() == id {
			return i
		}
	}
	return -1
}

// callsAny reports whether c calls any of ids.
func callsAny(c *v1.Content, ids []string) bool {
	for _, p := range c.GetParts() {
		if fc := p.GetFunctionCall(); fc != nil && slices.Contains(ids, fc.GetId()) {
			return true
		}
	}
	return false
}

// respondsToAny reports whether c answers any of ids.
func respondsToAny(c *v1.Content, ids []string) bool {
	for _, p := range c.GetParts() {
		if fr := p.GetFunctionResponse(); fr != nil && slices.Contains(ids, fr.GetId()) {
			return true
		}
	}
	return false
}

// appendCallIDs appends the ids of c's calls to dst, each once, in order.
func appendCallIDs(dst []string, c *v1.Content) []string {
	for _, p := range c.GetParts() {
		if fc := p.GetFunctionCall(); fc != nil && !slices.Contains(dst, fc.GetId()) {
			dst = append(dst, fc.GetId())
		}
	}
	return dst
}

// appendResponseIDs appends the ids of c's responses to dst, each once, in
// order.
func appendResponseIDs(dst []string, c *v1.Content) []string {
	for _, p := range c.GetParts() {
		if fr := p.GetFunctionResponse(); fr != nil && !slices.Contains(dst, fr.GetId()) {
			dst = append(dst, fr.GetId())
		}
	}
	return dst
}
