package config

import (
	"strings"
	"testing"
	"testing/fstest"
)

func TestLoadExampleToolErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ args, want string }{
		{`{}`, "tools[0].args: examples: required"},
		{`{examples: my_pkg.examples.provider}`, "an example provider in code is not supported"},
		{`{examples: [{input: {parts: [{text: hi}]}}]}`, "examples[0].input, output: both required"},
		{`{examples: [{input: {parts: [{inline_data: {}}]}, output: []}]}`, "examples[0].input.parts[0].inline_data: not supported"},
		{`{examples: [], extra: 1}`, "extra: unknown field"},
	}
	for _, tt := range tests {
		fsys := fstest.MapFS{"desk/root_agent.yaml": {Data: []byte("name: root\nmodel: m\ntools:\n  - name: ExampleTool\n    args: " + tt.args + "\n")}}
		apps, err := LoadAll(fsys)
		if err == nil {
			_, _, err = Build(apps[0])
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "desk/root_agent.yaml: ") {
			t.Errorf("%s: error %v, want one naming the file and %q", tt.args, err, tt.want)
		}
	}
}
