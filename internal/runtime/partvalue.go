package runtime

import (
	"encoding/base64"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// PartValue returns p as the JSON object google-genai makes of a Part
// (model_dump in JSON mode, without unset fields): snake_case names, bytes
// in URL-safe base64. A tool that returns Parts has them so in its function
// response, as in ADK.
func PartValue(p *v1.Part) *structpb.Value {
	f := stringFields("text", p.GetText())
	if p.GetThought() {
		f["thought"] = structpb.NewBoolValue(true)
	}
	putBytes(f, "thought_signature", p.GetThoughtSignature())
	if b := p.GetInlineData(); b != nil {
		o := stringFields("mime_type", b.GetMimeType(), "display_name", b.GetDisplayName())
		putBytes(o, "data", b.GetData())
		f["inline_data"] = object(o)
	}
	if d := p.GetFileData(); d != nil {
		f["file_data"] = object(stringFields("mime_type", d.GetMimeType(), "file_uri", d.GetFileUri(), "display_name", d.GetDisplayName()))
	}
	if c := p.GetFunctionCall(); c != nil {
		o := stringFields("id", c.GetId(), "name", c.GetName())
		if c.GetArgs() != nil {
			o["args"] = structpb.NewStructValue(c.GetArgs())
		}
		f["function_call"] = object(o)
	}
	if r := p.GetFunctionResponse(); r != nil {
		o := stringFields("id", r.GetId(), "name", r.GetName())
		if r.GetResponse() != nil {
			o["response"] = structpb.NewStructValue(r.GetResponse())
		}
		f["function_response"] = object(o)
	}
	if c := p.GetExecutableCode(); c != nil {
		f["executable_code"] = object(stringFields("language", c.GetLanguage(), "code", c.GetCode()))
	}
	if r := p.GetCodeExecutionResult(); r != nil {
		f["code_execution_result"] = object(stringFields("outcome", r.GetOutcome(), "output", r.GetOutput()))
	}
	return object(f)
}

func object(fields map[string]*structpb.Value) *structpb.Value {
	return structpb.NewStructValue(&structpb.Struct{Fields: fields})
}

// stringFields returns the fields of key, value pairs whose value is not
// empty.
func stringFields(kv ...string) map[string]*structpb.Value {
	f := make(map[string]*structpb.Value, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			f[kv[i]] = structpb.NewStringValue(kv[i+1])
		}
	}
	return f
}

func putBytes(fields map[string]*structpb.Value, key string, b []byte) {
	if len(b) > 0 {
		fields[key] = structpb.NewStringValue(base64.URLEncoding.EncodeToString(b))
	}
}
