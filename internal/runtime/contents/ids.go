package contents

import (
	"strings"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// clearClientIDs replaces each content holding a call or response
// id that starts with "adk-" by a copy with those ids cleared, as ADK's
// remove_client_function_call_id does on its copy of the request. Stored
// messages are never changed: the copies are shallow and share everything
// but the changed messages. Copies are carved from arrays of up to
// slabChunk messages, so a long history costs few allocations.
func (l *contentList) clearClientIDs() {
	l.needFlags()
	var nContents, nParts, nCopiedParts, nCalls, nResponses int
	for i, c := range l.contents {
		if l.flags[i]&hasClientID == 0 {
			continue
		}
		copied, calls, responses := countClientIDs(c)
		if copied == 0 {
			// A merge can replace the part that carried the id.
			l.flags[i] &^= hasClientID
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
		contents:  newSlab[v1.Content](nContents),
		partPtrs:  newSlab[*v1.Part](nParts),
		parts:     newSlab[v1.Part](nCopiedParts),
		calls:     newSlab[v1.FunctionCall](nCalls),
		responses: newSlab[v1.FunctionResponse](nResponses),
	}
	l.own()
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

// slabChunk bounds the arrays a slab allocates at once, keeping each
// allocation a small object: large ones cost more to allocate and to scan.
const slabChunk = 64

// slab hands out zeroed values from arrays of up to slabChunk values, so
// that n values cost about n/slabChunk allocations.
type slab[T any] struct {
	free []T
	left int // values still to hand out, for sizing the next array
}

func newSlab[T any](n int) slab[T] { return slab[T]{left: n} }

func (s *slab[T]) take(n int) []T {
	if len(s.free) < n {
		size := max(min(s.left, slabChunk), n)
		s.free = make([]T, size)
	}
	out := s.free[:n:n]
	s.free = s.free[n:]
	s.left -= n
	return out
}

func (s *slab[T]) one() *T { return &s.take(1)[0] }

// slabs hold the slabs one clearing pass draws from.
type slabs struct {
	contents  slab[v1.Content]
	partPtrs  slab[*v1.Part]
	parts     slab[v1.Part]
	calls     slab[v1.FunctionCall]
	responses slab[v1.FunctionResponse]
}

func (s *slabs) copyContent(src *v1.Content) *v1.Content {
	dst := s.contents.one()
	dst.Role = src.GetRole()
	dst.Parts = s.partPtrs.take(len(src.GetParts()))
	for i, p := range src.GetParts() {
		fc, fr := p.GetFunctionCall(), p.GetFunctionResponse()
		clearCall, clearResp := isClientID(fc.GetId()), isClientID(fr.GetId())
		if !clearCall && !clearResp {
			dst.Parts[i] = p
			continue
		}
		np := s.parts.one()
		copyPart(np, p)
		if clearCall {
			nc := s.calls.one()
			nc.Name, nc.Args, nc.KeyOrder = fc.GetName(), fc.GetArgs(), fc.GetKeyOrder()
			np.FunctionCall = nc
		}
		if clearResp {
			nr := s.responses.one()
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
	dst.PartMetadata = src.GetPartMetadata()
}
