package gemini

import (
	"strconv"
	"strings"
)

// OutputSchemaWithTools implements [models.SchemaWithTools]: as ADK decides,
// only Vertex AI serves Gemini 2 and later with a response schema and tools
// together.
func (m *model) OutputSchemaWithTools() bool {
	return m.conv.vertex && geminiMajorVersion(m.name) >= 2
}

// geminiMajorVersion returns the major version of a Gemini model name
// ("gemini-2.5-flash", "models/gemini-2.0-pro", or a Vertex resource path),
// 0 when it is not a versioned Gemini name.
func geminiMajorVersion(name string) int {
	if i := strings.LastIndex(name, "/"); i >= 0 {
		name = name[i+1:]
	}
	rest, ok := strings.CutPrefix(name, "gemini-")
	if !ok {
		return 0
	}
	end := strings.IndexAny(rest, ".-")
	if end < 0 {
		end = len(rest)
	}
	major, err := strconv.Atoi(rest[:end])
	if err != nil {
		return 0
	}
	return major
}
