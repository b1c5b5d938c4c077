package pyfmt

import (
	"testing"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// TestPartStr: str() of google-genai 2.34's Part, as printed by Python.
func TestPartStr(t *testing.T) {
	head := "media_resolution=None code_execution_result=None executable_code=None file_data=None function_call=None function_response=None "
	tail := " thought=None thought_signature=None video_metadata=None tool_call=None tool_response=None part_metadata=None audio_transcription=None media_processing=None speech_metadata=None"
	data := make([]byte, 0, 52)
	for i := range 40 {
		data = append(data, byte(i))
	}
	data = append(data, "it'sit'sit's"...)
	tests := []struct {
		part *v1.Part
		want string
	}{
		{&v1.Part{Text: "hello"}, head + "inline_data=None text='hello'" + tail},
		{&v1.Part{Text: "it's \"q\"\nline2"}, head + "inline_data=None text='it\\'s \"q\"\\nline2'" + tail},
		{&v1.Part{InlineData: &v1.Blob{MimeType: "application/pdf", Data: data}}, head +
			"inline_data=Blob(\n  data=b'\\x00\\x01\\x02\\x03\\x04\\x05\\x06\\x07\\x08\\t\\n\\x0b\\x0c\\r\\x0e\\x0f\\x10\\x11\\x12\\x13\\x14\\x15\\x16\\x17\\x18\\x19\\x1a\\x1b\\x1c\\x1d\\x1e\\x1f !\"#$%&\\'it\\'sit\\'sit\\'s',\n  mime_type='application/pdf'\n) text=None" + tail},
		{&v1.Part{InlineData: &v1.Blob{MimeType: "x", Data: []byte(string(make([]byte, 0)) + repeat('a', 300))}}, head +
			"inline_data=Blob(\n  data=b'" + repeat('a', 97) + "...',\n  mime_type='x'\n) text=None" + tail},
	}
	for _, tt := range tests {
		if got := PartStr(tt.part); got != tt.want {
			t.Errorf("PartStr(%v) =\n%q\nwant\n%q", tt.part, got, tt.want)
		}
	}
}

func repeat(c byte, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = c
	}
	return string(b)
}
