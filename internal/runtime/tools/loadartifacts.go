package tools

import (
	"fmt"
	"log/slog"
	"strings"
	"unicode/utf8"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/artifacts"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/pyfmt"
)

const loadArtifactsDescription = "Loads artifacts into the session for this request.\n\n" +
	"NOTE: Call when you need access to artifacts (for example, uploads saved by the\nweb UI)."

// loadArtifactsStatus is the status ADK's load_artifacts answers with.
const loadArtifactsStatus = "artifact contents temporarily inserted and removed. to access these artifacts, call load_artifacts tool again."

// LoadArtifacts is ADK's load_artifacts tool, in two steps: each request
// lists the artifact names in the instruction; when the model has just
// called the tool, the request also carries the contents it asked for, as
// Gemini can read them (PDFs, images, audio and video inline; text types as
// text; other binaries as a note).
type LoadArtifacts struct{}

// Name implements [runtime.Tool].
func (LoadArtifacts) Name() string { return "load_artifacts" }

// Description implements [runtime.Tool].
func (LoadArtifacts) Description() string { return loadArtifactsDescription }

// IsLongRunning implements [runtime.Tool].
func (LoadArtifacts) IsLongRunning() bool { return false }

// Declaration implements [runtime.Tool].
func (LoadArtifacts) Declaration() *v1.FunctionDeclaration {
	return &v1.FunctionDeclaration{Name: "load_artifacts", Description: loadArtifactsDescription, Parameters: mustStruct(map[string]any{
		"type": "object",
		"properties": map[string]any{
			"artifact_names": map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
		},
	})}
}

// DeclarationFor implements [runtime.BehaviorDeclarer]: ADK 2.x declares
// the parameters as a JSON schema.
func (t LoadArtifacts) DeclarationFor(b runtime.Behavior) *v1.FunctionDeclaration {
	d := t.Declaration()
	if b == runtime.Behavior2x {
		d.ParametersJsonSchema, d.Parameters = structpb.NewStructValue(d.Parameters), nil
	}
	return d
}

// Run implements [runtime.Tool]: ADK's acknowledgement; the contents go
// into the next request.
func (LoadArtifacts) Run(_ *runtime.ToolContext, args *structpb.Struct) (any, error) {
	names := args.GetFields()["artifact_names"]
	if names == nil {
		names = structpb.NewListValue(&structpb.ListValue{})
	}
	return &structpb.Struct{Fields: map[string]*structpb.Value{
		"artifact_names": names, "status": structpb.NewStringValue(loadArtifactsStatus),
	}}, nil
}

// ProcessRequest implements [runtime.RequestProcessor].
func (LoadArtifacts) ProcessRequest(ictx *runtime.InvocationContext, req *v1.LlmRequest) error {
	names, err := ictx.ListArtifacts()
	if err != nil || len(names) == 0 {
		return err
	}
	list := make([]*structpb.Value, len(names))
	for i, n := range names {
		list[i] = structpb.NewStringValue(n)
	}
	runtime.AppendInstruction(req, "You have a list of artifacts:\n  "+pyfmt.JSONDumps(structpb.NewListValue(&structpb.ListValue{Values: list}))+
		"\n\n  When the user asks questions about any of the artifacts, you should call the\n"+
		"  `load_artifacts` function to load the artifact. Always call load_artifacts\n"+
		"  before answering questions related to the artifacts, regardless of whether the\n"+
		"  artifacts have been loaded before. Do not depend on prior answers about the\n"+
		"  artifacts.\n  ")
	if len(req.Contents) == 0 {
		return nil
	}
	last := req.Contents[len(req.Contents)-1].GetParts()
	if len(last) == 0 || last[0].GetFunctionResponse().GetName() != "load_artifacts" {
		return nil
	}
	for _, v := range last[0].GetFunctionResponse().GetResponse().GetFields()["artifact_names"].GetListValue().GetValues() {
		name := v.GetStringValue()
		part, err := ictx.LoadArtifact(name, artifacts.Latest)
		if err != nil {
			return err
		}
		if part == nil && !strings.HasPrefix(name, artifacts.UserPrefix) {
			if part, err = ictx.LoadArtifact(artifacts.UserPrefix+name, artifacts.Latest); err != nil {
				return err
			}
		}
		if part == nil {
			slog.WarnContext(ictx.Context(), "Artifact not found, skipping", "artifact", name)
			continue
		}
		req.Contents = append(req.Contents, &v1.Content{Role: "user", Parts: []*v1.Part{
			{Text: "Artifact " + name + " is:"}, safePart(part, name),
		}})
	}
	return nil
}

// safePart is the artifact as Gemini accepts it, as ADK's
// _as_safe_part_for_llm makes it.
func safePart(p *v1.Part, name string) *v1.Part {
	blob := p.GetInlineData()
	if blob == nil {
		return p
	}
	mime := strings.TrimSpace(strings.SplitN(blob.GetMimeType(), ";", 2)[0])
	switch {
	case strings.HasPrefix(mime, "image/"), strings.HasPrefix(mime, "audio/"), strings.HasPrefix(mime, "video/"),
		mime == "application/pdf":
		return p
	case mime == "":
		mime = "application/octet-stream"
	}
	data := blob.GetData()
	if data == nil {
		return &v1.Part{Text: fmt.Sprintf("[Artifact: %s, type: %s. No inline data was provided.]", name, mime)}
	}
	if strings.HasPrefix(mime, "text/") || mime == "application/csv" || mime == "application/json" || mime == "application/xml" {
		return &v1.Part{Text: decodeReplacing(data)}
	}
	return &v1.Part{Text: fmt.Sprintf("[Binary artifact: %s, type: %s, size: %.1f KB. Content cannot be displayed inline.]",
		name, mime, float64(len(data))/1024)}
}

// decodeReplacing reads UTF-8 as Python's decode(errors="replace"): each
// maximal invalid sequence (a lead byte and the continuation bytes that
// could follow it) reads as one U+FFFD.
func decodeReplacing(data []byte) string {
	if utf8.Valid(data) {
		return string(data)
	}
	var b strings.Builder
	for len(data) > 0 {
		r, n := utf8.DecodeRune(data)
		if r == utf8.RuneError && n == 1 {
			n = invalidRun(data)
		}
		b.WriteRune(r)
		data = data[n:]
	}
	return b.String()
}

// invalidRun is the length of the invalid sequence data starts with: its
// lead byte and the continuation bytes valid after it.
func invalidRun(data []byte) int {
	lead := data[0]
	var want int
	lo, hi := byte(0x80), byte(0xbf) // the second byte's range
	switch {
	case lead >= 0xc2 && lead <= 0xdf:
		want = 1
	case lead >= 0xe0 && lead <= 0xef:
		want = 2
		switch lead {
		case 0xe0:
			lo = 0xa0
		case 0xed:
			hi = 0x9f
		}
	case lead >= 0xf0 && lead <= 0xf4:
		want = 3
		switch lead {
		case 0xf0:
			lo = 0x90
		case 0xf4:
			hi = 0x8f
		}
	default:
		return 1
	}
	n := 1
	for n <= want && n < len(data) {
		c := data[n]
		if n == 1 && (c < lo || c > hi) || n > 1 && (c < 0x80 || c > 0xbf) {
			break
		}
		n++
	}
	return n
}
