package pyfmt

import (
	"strings"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// partFields are the fields of google-genai's Part (2.34, the release
// google-adk 1.39 installs), in the order str() prints them.
var partFields = []string{"media_resolution", "code_execution_result", "executable_code", "file_data", "function_call",
	"function_response", "inline_data", "text", "thought", "thought_signature", "video_metadata", "tool_call",
	"tool_response", "part_metadata", "audio_transcription", "media_processing", "speech_metadata"}

// PartStr is Python's str() of a google-genai Part holding a text or inline
// data (what ADK inserts for an {artifact.name} placeholder): every field as
// name=repr, space-separated, None for those unset; inline data as genai's
// Blob repr, its bytes cut to 97 and marked "..." past 100. Other kinds of
// part print as None.
func PartStr(p *v1.Part) string {
	var b strings.Builder
	for i, f := range partFields {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(f + "=")
		switch {
		case f == "text" && p.GetText() != "":
			b.WriteString(Quote(p.GetText()))
		case f == "inline_data" && p.GetInlineData() != nil:
			b.WriteString(blobRepr(p.GetInlineData()))
		case f == "thought" && p.GetThought():
			b.WriteString("True")
		default:
			b.WriteString("None")
		}
	}
	return b.String()
}

// blobRepr is google-genai's repr of a Blob: its set fields sorted, one a
// line, indented by two.
func blobRepr(blob *v1.Blob) string {
	var items []string
	if blob.GetData() != nil {
		items = append(items, "  data="+bytesRepr(blob.GetData(), 100))
	}
	if blob.GetMimeType() != "" {
		items = append(items, "  mime_type="+Quote(blob.GetMimeType()))
	}
	if len(items) == 0 {
		return "Blob()"
	}
	return "Blob(\n" + strings.Join(items, ",\n") + "\n)"
}

// bytesRepr is Python's repr() of bytes, cut as google-genai cuts bytes
// longer than maxLen: the first maxLen-3 bytes and "..." inside the quotes.
func bytesRepr(data []byte, maxLen int) string {
	if len(data) > maxLen {
		r := bytesRepr(data[:maxLen-3], maxLen)
		return r[:len(r)-1] + "...'"
	}
	quote := byte('\'')
	if strings.IndexByte(string(data), '\'') >= 0 && strings.IndexByte(string(data), '"') < 0 {
		quote = '"'
	}
	out := []byte{'b', quote}
	for _, c := range data {
		switch {
		case c == quote || c == '\\':
			out = append(out, '\\', c)
		case c == '\t':
			out = append(out, '\\', 't')
		case c == '\n':
			out = append(out, '\\', 'n')
		case c == '\r':
			out = append(out, '\\', 'r')
		case c < 0x20 || c >= 0x7f:
			out = append(out, '\\', 'x', hexDigits[c>>4], hexDigits[c&0xf])
		default:
			out = append(out, c)
		}
	}
	return string(append(out, quote))
}
