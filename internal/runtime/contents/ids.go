package contents

import (
	"strings"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// clearClientIDs replaces each content holding a call or response
// id that starts with "adk-" by a copy with those ids cleared, as ADK's
// remove_client_function_call_id does on its copy of the request. Stored
// messages are never changed: the copies are shallow and share everything
// but the changed messages. All copies come from a few slabs, so the number
// of allocations does not grow with the history.
func (l *contentList) clearClientIDs() {
	var nContents, nParts, nCopiedParts, nCalls, nResponses int
	for i, c := range l.contents {
		if l.flags[i]&hasClientID == 0 {
			continue
		}
		copied, calls, responses := countClientIDs(c)
		if copied == 0 {
			continue
		}
		nContents++
		nParts += len(c.GetParts())
		nCopiedParts += copied
		nCalls += calls
		nResponses += responses
	}
	if nContents == 0 {
		return
	}
	s := slabs{
		contents:  make([]v1.Content, nContents),
		partPtrs:  make([]*v1.Part, nParts),
		parts:     make([]v1.Part, nCopiedParts),
		calls:     make([]v1.FunctionCall, nCalls),
		responses: make([]v1.FunctionResponse, nResponses),
	}
	for i, c := range l.contents {
		if l.flags[i]&hasClientID != 0 {
			l.contents[i] = s.copyContent(c)
		}
	}
}

// countClientIDs counts the parts of c that need copying, and the calls and
// responses among them.
func countClientIDs(c *v1.Content) (parts, calls, responses int) {
	for _, p := range c.GetParts() {
		fc := isClientID(p.GetFunctionCall().GetId())
		fr := isClientID(p.GetFunctionResponse().GetId())
		if fc {
			calls++
		}
		if fr {
			responses++
		}
		if fc || fr {
			parts++
		}
	}
	return parts, calls, responses
}

func isClientID(id string) bool {
	return strings.HasPrefix(id, clientIDPrefix)
}

// slabs hand out zeroed messages from preallocated arrays.
type slabs struct {
	contents  []v1.Content
	partPtrs  []*v1.Part
	parts     []v1.Part
	calls     []v1.FunctionCall
	responses []v1.FunctionResponse
}

func (s *slabs) copyContent(src *v1.Content) *v1.Content {
	dst := &s.contents[0]
	s.contents = s.contents[1:]
	n := len(src.GetParts())
	dst.Role = src.GetRole()
	dst.Parts = s.partPtrs[:n:n]
	s.partPtrs = s.partPtrs[n:]
	for i, p := range src.GetParts() {
		fc, fr := p.GetFunctionCall(), p.GetFunctionResponse()
		clearCall, clearResp := isClientID(fc.GetId()), isClientID(fr.GetId())
		if !clearCall && !clearResp {
			dst.Parts[i] = p
			continue
		}
		np := &s.parts[0]
		s.parts = s.parts[1:]
		copyPart(np, p)
		if clearCall {
			nc := &s.calls[0]
			s.calls = s.calls[1:]
			nc.Name, nc.Args = fc.GetName(), fc.GetArgs()
			np.FunctionCall = nc
		}
		if clearResp {
			nr := &s.responses[0]
			s.responses = s.responses[1:]
			nr.Name, nr.Response = fr.GetName(), fr.GetResponse()
			np.FunctionResponse = nr
		}
		dst.Parts[i] = np
	}
	return dst
}

// copyPart sets every field of dst to src's, sharing sub-messages.
func copyPart(dst, src *v1.Part) {
	dst.Text = src.GetText()
	dst.Thought = src.GetThought()
	dst.ThoughtSignature = src.GetThoughtSignature()
	dst.InlineData = src.GetInlineData()
	dst.FileData = src.GetFileData()
	dst.FunctionCall = src.GetFunctionCall()
	dst.FunctionResponse = src.GetFunctionResponse()
	dst.ExecutableCode = src.GetExecutableCode()
	dst.CodeExecutionResult = src.GetCodeExecutionResult()
}
