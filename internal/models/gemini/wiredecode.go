package gemini

import (
	"encoding/base64"
	"encoding/json"
	"strconv"
	"time"
	"unicode/utf8"

	"google.golang.org/genai"
	"google.golang.org/protobuf/types/known/structpb"
)

// decodeResponse reads a generateContent answer straight into the SDK's
// response type, as the SDK reads it through its maps, for the answers
// models commonly give: text, thoughts and function calls, finish reason,
// log probability, usage and model version. It reports false for anything
// else (another field, a null, a key in another case, a number out of
// range, malformed JSON), which the SDK itself then reads (see
// [directCaller.replay]): the answer is the same either way, the common
// one just costs less.
func decodeResponse(data []byte) (*genai.GenerateContentResponse, bool) {
	r := jsonReader{b: data}
	out := &genai.GenerateContentResponse{}
	ok := r.object(func(key []byte) bool {
		switch string(key) {
		case "candidates":
			out.Candidates = out.Candidates[:0:0]
			return r.array(func() bool {
				c, ok := r.candidate()
				out.Candidates = append(out.Candidates, c)
				return ok
			})
		case "modelVersion":
			return r.str(&out.ModelVersion)
		case "responseId":
			return r.str(&out.ResponseID)
		case "usageMetadata":
			out.UsageMetadata = &genai.GenerateContentResponseUsageMetadata{}
			return r.usage(out.UsageMetadata)
		case "createTime":
			return r.time(&out.CreateTime)
		}
		return false
	})
	r.space()
	return out, ok && r.i == len(r.b)
}

// jsonReader reads JSON strictly: exact keys, no nulls, and only the
// values its callers ask for.
type jsonReader struct {
	b []byte
	i int
}

func (r *jsonReader) space() {
	for r.i < len(r.b) {
		switch r.b[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

// next skips space and consumes c when it comes next.
func (r *jsonReader) next(c byte) bool {
	r.space()
	if r.i < len(r.b) && r.b[r.i] == c {
		r.i++
		return true
	}
	return false
}

// object reads an object, calling each for every key with the reader at
// its value, which each must read.
func (r *jsonReader) object(each func(key []byte) bool) bool {
	if !r.next('{') {
		return false
	}
	if r.next('}') {
		return true
	}
	for {
		r.space()
		key, ok := r.rawBytes()
		if !ok || !r.next(':') || !each(key) {
			return false
		}
		if r.next('}') {
			return true
		}
		if !r.next(',') {
			return false
		}
	}
}

// array reads an array, calling each for every element.
func (r *jsonReader) array(each func() bool) bool {
	if !r.next('[') {
		return false
	}
	if r.next(']') {
		return true
	}
	for {
		if !each() {
			return false
		}
		if r.next(']') {
			return true
		}
		if !r.next(',') {
			return false
		}
	}
}

// rawString reads a string without escapes, valid UTF-8 and free of
// control characters; false for any other.
func (r *jsonReader) rawString() (string, bool) {
	b, ok := r.rawBytes()
	return string(b), ok
}

// rawBytes is [jsonReader.rawString] without the copy: the bytes are the
// document's.
func (r *jsonReader) rawBytes() ([]byte, bool) {
	if r.i >= len(r.b) || r.b[r.i] != '"' {
		return nil, false
	}
	start := r.i + 1
	ascii := true
	for j := start; j < len(r.b); j++ {
		switch c := r.b[j]; {
		case c == '"':
			s := r.b[start:j]
			if !ascii && !utf8.Valid(s) {
				return nil, false
			}
			r.i = j + 1
			return s, true
		case c == '\\' || c < 0x20:
			return nil, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return nil, false
}

// str reads a string into dst, escapes included.
func (r *jsonReader) str(dst *string) bool {
	r.space()
	if s, ok := r.rawString(); ok {
		*dst = s
		return true
	}
	// A string with escapes: encoding/json reads it as the SDK does.
	end, ok := r.stringEnd()
	if !ok {
		return false
	}
	if json.Unmarshal(r.b[r.i:end], dst) != nil {
		return false
	}
	r.i = end
	return true
}

// stringEnd returns the end of the string at the reader.
func (r *jsonReader) stringEnd() (int, bool) {
	if r.i >= len(r.b) || r.b[r.i] != '"' {
		return 0, false
	}
	for j := r.i + 1; j < len(r.b); j++ {
		switch r.b[j] {
		case '"':
			return j + 1, true
		case '\\':
			j++
		}
	}
	return 0, false
}

// bytes reads a base64 string as encoding/json reads a []byte.
func (r *jsonReader) bytes(dst *[]byte) bool {
	var s string
	if !r.str(&s) {
		return false
	}
	b := make([]byte, base64.StdEncoding.DecodedLen(len(s)))
	n, err := base64.StdEncoding.Decode(b, []byte(s))
	if err != nil {
		return false
	}
	*dst = b[:n]
	return true
}

func (r *jsonReader) boolean(dst *bool) bool {
	r.space()
	switch {
	case len(r.b)-r.i >= 4 && string(r.b[r.i:r.i+4]) == "true":
		*dst, r.i = true, r.i+4
	case len(r.b)-r.i >= 5 && string(r.b[r.i:r.i+5]) == "false":
		*dst, r.i = false, r.i+5
	default:
		return false
	}
	return true
}

// number returns the text of the number at the reader, checked against
// JSON's grammar.
func (r *jsonReader) number() ([]byte, bool) {
	r.space()
	start, j := r.i, r.i
	digits := func() bool {
		k := j
		for j < len(r.b) && r.b[j] >= '0' && r.b[j] <= '9' {
			j++
		}
		return j > k
	}
	if j < len(r.b) && r.b[j] == '-' {
		j++
	}
	switch {
	case j < len(r.b) && r.b[j] == '0':
		j++
	case !digits():
		return nil, false
	}
	if j < len(r.b) && r.b[j] == '.' {
		j++
		if !digits() {
			return nil, false
		}
	}
	if j < len(r.b) && (r.b[j] == 'e' || r.b[j] == 'E') {
		j++
		if j < len(r.b) && (r.b[j] == '+' || r.b[j] == '-') {
			j++
		}
		if !digits() {
			return nil, false
		}
	}
	r.i = j
	return r.b[start:j], true
}

// int32 reads an integer literal that fits an int32; the SDK also takes
// 1.0 or 1e2, which go to it.
func (r *jsonReader) int32(dst *int32) bool {
	text, ok := r.number()
	if !ok {
		return false
	}
	n, err := strconv.ParseInt(string(text), 10, 32)
	if err != nil {
		return false
	}
	*dst = int32(n)
	return true
}

func (r *jsonReader) float(dst *float64) bool {
	text, ok := r.number()
	if !ok {
		return false
	}
	f, err := strconv.ParseFloat(string(text), 64)
	if err != nil {
		return false
	}
	*dst = f
	return true
}

// time reads a timestamp as the SDK's response type reads it.
func (r *jsonReader) time(dst *time.Time) bool {
	r.space()
	start := r.i
	if _, ok := r.rawBytes(); !ok {
		return false
	}
	return dst.UnmarshalJSON(r.b[start:r.i]) == nil
}

func (r *jsonReader) candidate() (*genai.Candidate, bool) {
	c := &genai.Candidate{}
	return c, r.object(func(key []byte) bool {
		switch string(key) {
		case "content":
			c.Content = &genai.Content{}
			return r.content(c.Content)
		case "finishReason":
			return r.str((*string)(&c.FinishReason))
		case "index":
			return r.int32(&c.Index)
		case "avgLogprobs":
			return r.float(&c.AvgLogprobs)
		}
		return false
	})
}

func (r *jsonReader) content(c *genai.Content) bool {
	return r.object(func(key []byte) bool {
		switch string(key) {
		case "role":
			return r.str(&c.Role)
		case "parts":
			c.Parts = c.Parts[:0:0]
			return r.array(func() bool {
				p := &genai.Part{}
				c.Parts = append(c.Parts, p)
				return r.part(p)
			})
		}
		return false
	})
}

func (r *jsonReader) part(p *genai.Part) bool {
	return r.object(func(key []byte) bool {
		switch string(key) {
		case "text":
			return r.str(&p.Text)
		case "thought":
			return r.boolean(&p.Thought)
		case "thoughtSignature":
			return r.bytes(&p.ThoughtSignature)
		case "functionCall":
			p.FunctionCall = &genai.FunctionCall{}
			return r.functionCall(p.FunctionCall)
		}
		return false
	})
}

func (r *jsonReader) functionCall(fc *genai.FunctionCall) bool {
	return r.object(func(key []byte) bool {
		switch string(key) {
		case "id":
			return r.str(&fc.ID)
		case "name":
			return r.str(&fc.Name)
		case "args":
			s, ok := r.structValue()
			if ok {
				fc.Args = s.AsMap()
			}
			return ok
		}
		return false
	})
}

func (r *jsonReader) usage(u *genai.GenerateContentResponseUsageMetadata) bool {
	return r.object(func(key []byte) bool {
		switch string(key) {
		case "promptTokenCount":
			return r.int32(&u.PromptTokenCount)
		case "candidatesTokenCount":
			return r.int32(&u.CandidatesTokenCount)
		case "totalTokenCount":
			return r.int32(&u.TotalTokenCount)
		case "thoughtsTokenCount":
			return r.int32(&u.ThoughtsTokenCount)
		case "cachedContentTokenCount":
			return r.int32(&u.CachedContentTokenCount)
		case "toolUsePromptTokenCount":
			return r.int32(&u.ToolUsePromptTokenCount)
		case "trafficType":
			return r.str((*string)(&u.TrafficType))
		case "promptTokensDetails":
			return r.modalityCounts(&u.PromptTokensDetails)
		case "candidatesTokensDetails":
			return r.modalityCounts(&u.CandidatesTokensDetails)
		case "cacheTokensDetails":
			return r.modalityCounts(&u.CacheTokensDetails)
		case "toolUsePromptTokensDetails":
			return r.modalityCounts(&u.ToolUsePromptTokensDetails)
		}
		return false
	})
}

func (r *jsonReader) modalityCounts(dst *[]*genai.ModalityTokenCount) bool {
	*dst = (*dst)[:0:0]
	return r.array(func() bool {
		m := &genai.ModalityTokenCount{}
		*dst = append(*dst, m)
		return r.object(func(key []byte) bool {
			switch string(key) {
			case "modality":
				return r.str((*string)(&m.Modality))
			case "tokenCount":
				return r.int32(&m.TokenCount)
			}
			return false
		})
	})
}

// structValue reads an object into a Struct, as the SDK's map becomes one
// in [mapStruct]: the last of repeated keys wins.
func (r *jsonReader) structValue() (*structpb.Struct, bool) {
	s := &structpb.Struct{Fields: map[string]*structpb.Value{}}
	return s, r.object(func(key []byte) bool {
		v, ok := r.value()
		s.Fields[string(key)] = v
		return ok
	})
}

// value reads any JSON value.
func (r *jsonReader) value() (*structpb.Value, bool) {
	r.space()
	if r.i >= len(r.b) {
		return nil, false
	}
	switch r.b[r.i] {
	case '"':
		var s string
		ok := r.str(&s)
		return structpb.NewStringValue(s), ok
	case 'n':
		if len(r.b)-r.i >= 4 && string(r.b[r.i:r.i+4]) == "null" {
			r.i += 4
			return structpb.NewNullValue(), true
		}
		return nil, false
	case '{':
		s, ok := r.structValue()
		return structpb.NewStructValue(s), ok
	case '[':
		l := &structpb.ListValue{}
		ok := r.array(func() bool {
			v, ok := r.value()
			l.Values = append(l.Values, v)
			return ok
		})
		return structpb.NewListValue(l), ok
	case 't', 'f':
		var b bool
		ok := r.boolean(&b)
		return structpb.NewBoolValue(b), ok
	}
	var f float64
	ok := r.float(&f)
	return structpb.NewNumberValue(f), ok
}
