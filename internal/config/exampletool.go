package config

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/agentsvc/agentsvc/internal/runtime/pyfmt"
	"github.com/agentsvc/agentsvc/internal/runtime/tools"
)

// UnmarshalYAML decodes a tool entry and keeps its args as written, for
// the tools whose behaviour depends on the order of their keys.
func (r *ToolRef) UnmarshalYAML(n *yaml.Node) error {
	type plain ToolRef
	if err := n.Decode((*plain)(r)); err != nil {
		return err
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "args" {
			r.argsNode = n.Content[i+1]
		}
	}
	return nil
}

// An example as ADK's Example model holds it: the input content and the
// output contents, their values kept in YAML order.
type (
	example struct {
		input  []string // the input's texts
		output []exampleContent
	}
	exampleContent struct {
		role  string
		parts []examplePart
	}
	examplePart struct {
		text     string
		call     *exampleCall
		response *exampleResponse
	}
	exampleCall struct {
		name string
		args *yaml.Node
	}
	exampleResponse struct {
		id, name *yaml.Node
		response *yaml.Node
	}
)

// buildExampleTool reads ExampleTool's args, {examples: [{input, output}]},
// and writes the examples out as ADK's example prompt.
func buildExampleTool(args *yaml.Node) (*tools.ExampleTool, error) {
	if args == nil || args.Kind != yaml.MappingNode {
		return nil, errors.New("examples: required: a list of {input, output} examples")
	}
	var list *yaml.Node
	for i := 0; i+1 < len(args.Content); i += 2 {
		if k := args.Content[i].Value; k != "examples" {
			return nil, fmt.Errorf("%s: unknown field (ExampleTool takes examples)", k)
		}
		list = args.Content[i+1]
	}
	switch {
	case list == nil:
		return nil, errors.New("examples: required: a list of {input, output} examples")
	case list.Kind == yaml.ScalarNode:
		return nil, errors.New("examples: an example provider in code is not supported; list the examples")
	case list.Kind != yaml.SequenceNode:
		return nil, errors.New("examples: must be a list of {input, output} examples")
	}
	examples := make([]example, 0, len(list.Content))
	for i, n := range list.Content {
		ex, err := readExample(n)
		if err != nil {
			return nil, fmt.Errorf("examples[%d].%w", i, err)
		}
		examples = append(examples, ex)
	}
	return tools.NewExampleTool(examplesText(examples, true), examplesText(examples, false)), nil
}

func readExample(n *yaml.Node) (example, error) {
	var ex example
	fields, err := mapping(n)
	if err != nil {
		return ex, err
	}
	for k, v := range fields {
		switch k {
		case "input":
			c, err := readContent(v)
			if err != nil {
				return ex, fmt.Errorf("input.%w", err)
			}
			for _, p := range c.parts {
				if p.text != "" {
					ex.input = append(ex.input, p.text)
				}
			}
			if len(c.parts) > 0 && ex.input == nil {
				ex.input = []string{}
			}
		case "output":
			if v.Kind != yaml.SequenceNode {
				return ex, errors.New("output: must be a list of contents")
			}
			for i, cn := range v.Content {
				c, err := readContent(cn)
				if err != nil {
					return ex, fmt.Errorf("output[%d].%w", i, err)
				}
				ex.output = append(ex.output, c)
			}
		default:
			return ex, fmt.Errorf("%s: unknown field (an example has input and output)", k)
		}
	}
	if fields["input"] == nil || fields["output"] == nil {
		return ex, errors.New("input, output: both required")
	}
	return ex, nil
}

func readContent(n *yaml.Node) (exampleContent, error) {
	var c exampleContent
	fields, err := mapping(n)
	if err != nil {
		return c, err
	}
	for k, v := range fields {
		switch k {
		case "role":
			c.role = v.Value
		case "parts":
			if v.Kind != yaml.SequenceNode {
				return c, errors.New("parts: must be a list")
			}
			for i, pn := range v.Content {
				p, err := readPart(pn)
				if err != nil {
					return c, fmt.Errorf("parts[%d].%w", i, err)
				}
				c.parts = append(c.parts, p)
			}
		default:
			return c, fmt.Errorf("%s: unknown field (a content has role and parts)", k)
		}
	}
	return c, nil
}

func readPart(n *yaml.Node) (examplePart, error) {
	var p examplePart
	fields, err := mapping(n)
	if err != nil {
		return p, err
	}
	for k, v := range fields {
		switch k {
		case "text":
			p.text = v.Value
		case "function_call", "functionCall":
			f, err := mapping(v)
			if err != nil {
				return p, fmt.Errorf("%s.%w", k, err)
			}
			p.call = &exampleCall{name: f["name"].Value, args: f["args"]}
			for fk := range f {
				if fk != "name" && fk != "args" && fk != "id" {
					return p, fmt.Errorf("%s.%s: unknown field", k, fk)
				}
			}
		case "function_response", "functionResponse":
			f, err := mapping(v)
			if err != nil {
				return p, fmt.Errorf("%s.%w", k, err)
			}
			p.response = &exampleResponse{id: f["id"], name: f["name"], response: f["response"]}
			for fk := range f {
				if fk != "name" && fk != "response" && fk != "id" {
					return p, fmt.Errorf("%s.%s: unknown field", k, fk)
				}
			}
		default:
			return p, fmt.Errorf("%s: not supported in an example (text, function_call, function_response)", k)
		}
	}
	return p, nil
}

// mapping returns a mapping node's fields by key.
func mapping(n *yaml.Node) (map[string]*yaml.Node, error) {
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n.Kind != yaml.MappingNode {
		return nil, errors.New("must be a mapping")
	}
	out := make(map[string]*yaml.Node, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		out[n.Content[i].Value] = n.Content[i+1]
	}
	return out, nil
}

// examplesText writes the examples as ADK's example_util does.
func examplesText(examples []example, gemini2 bool) string {
	var b strings.Builder
	b.WriteString("<EXAMPLES>\nBegin few-shot\nThe following are examples of user queries and model responses using the available tools.\n\n")
	callPrefix, responsePrefix := "```tool_code\n", "```tool_outputs\n"
	if gemini2 {
		callPrefix, responsePrefix = "```\n", "```\n"
	}
	for i, ex := range examples {
		fmt.Fprintf(&b, "EXAMPLE %d:\nBegin example\n[user]\n", i+1)
		if ex.input != nil {
			b.WriteString(strings.Join(ex.input, "\n") + "\n")
		}
		previous := ""
		for _, c := range ex.output {
			role := "[user]\n"
			if c.role == "model" {
				role = "[model]\n"
			}
			if role != previous {
				b.WriteString(role)
			}
			previous = role
			for _, p := range c.parts {
				switch {
				case p.call != nil:
					b.WriteString(callPrefix + p.call.name + "(" + callArgs(p.call.args) + ")\n```\n")
				case p.response != nil:
					b.WriteString(responsePrefix + "{'will_continue': None, 'scheduling': None, 'parts': None, 'id': " +
						pyRepr(p.response.id) + ", 'name': " + pyRepr(p.response.name) + ", 'response': " +
						pyRepr(p.response.response) + "}\n```\n")
				case p.text != "":
					b.WriteString(p.text + "\n")
				}
			}
		}
		b.WriteString("End example\n\n")
	}
	b.WriteString("End few-shot\n<EXAMPLES>")
	return b.String()
}

// callArgs writes a call's arguments as ADK does: k='v' for a string (not
// escaped), k=str(v) otherwise, in their order.
func callArgs(args *yaml.Node) string {
	if args == nil || args.Kind != yaml.MappingNode {
		return ""
	}
	out := make([]string, 0, len(args.Content)/2)
	for i := 0; i+1 < len(args.Content); i += 2 {
		k, v := args.Content[i].Value, args.Content[i+1]
		if v.Kind == yaml.ScalarNode && v.ShortTag() == "!!str" {
			out = append(out, k+"='"+v.Value+"'")
		} else {
			out = append(out, k+"="+pyRepr(v))
		}
	}
	return strings.Join(out, ", ")
}

// pyRepr is Python's repr() of the value PyYAML reads from a node; nil is
// None.
func pyRepr(n *yaml.Node) string {
	if n == nil {
		return "None"
	}
	switch n.Kind {
	case yaml.AliasNode:
		return pyRepr(n.Alias)
	case yaml.SequenceNode:
		items := make([]string, len(n.Content))
		for i, e := range n.Content {
			items[i] = pyRepr(e)
		}
		return "[" + strings.Join(items, ", ") + "]"
	case yaml.MappingNode:
		items := make([]string, 0, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			items = append(items, pyRepr(n.Content[i])+": "+pyRepr(n.Content[i+1]))
		}
		return "{" + strings.Join(items, ", ") + "}"
	}
	switch n.ShortTag() {
	case "!!null":
		return "None"
	case "!!bool":
		var v bool
		if n.Decode(&v) == nil && v {
			return "True"
		}
		return "False"
	case "!!int":
		if v, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64); err == nil {
			return strconv.FormatInt(v, 10)
		}
		return n.Value
	case "!!float":
		var v float64
		if n.Decode(&v) == nil && !math.IsNaN(v) {
			return string(pyfmt.AppendFloat(nil, v))
		}
		return "nan"
	}
	return pyfmt.Quote(n.Value)
}
