package a2a

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"

	"github.com/a2aproject/a2a-go/a2a"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// ADK's metadata keys and data part types (google.adk.a2a.converters).
const (
	metaPrefix          = "adk_"
	metaType            = metaPrefix + "type"
	metaLongRunning     = metaPrefix + "is_long_running"
	metaThought         = metaPrefix + "thought"
	metaThoughtSig      = metaPrefix + "thought_signature"
	typeFunctionCall    = "function_call"
	typeFunctionResp    = "function_response"
	typeCodeResult      = "code_execution_result"
	typeExecutableCode  = "executable_code"
	dataPartMIME        = "text/plain"
	dataPartStartTag    = "<a2a_datapart_json>"
	dataPartEndTag      = "</a2a_datapart_json>"
	requestEUCFunction  = "adk_request_credential"
	defaultErrorMessage = "An error occurred during processing"
)

// toA2APart converts a content part as ADK's convert_genai_part_to_a2a_part
// does; nil for a part without an A2A form.
func toA2APart(p *v1.Part) a2a.Part {
	switch {
	case p.GetFunctionCall() != nil:
		fc := p.GetFunctionCall()
		meta := map[string]any{metaType: typeFunctionCall}
		if len(p.GetThoughtSignature()) > 0 {
			meta[metaThoughtSig] = base64.StdEncoding.EncodeToString(p.GetThoughtSignature())
		}
		data := map[string]any{"name": fc.GetName()}
		if fc.GetId() != "" {
			data["id"] = fc.GetId()
		}
		if fc.GetArgs() != nil {
			data["args"] = fc.GetArgs().AsMap()
		}
		return a2a.DataPart{Data: data, Metadata: meta}
	case p.GetFunctionResponse() != nil:
		fr := p.GetFunctionResponse()
		data := map[string]any{"name": fr.GetName()}
		if fr.GetId() != "" {
			data["id"] = fr.GetId()
		}
		if fr.GetResponse() != nil {
			data["response"] = fr.GetResponse().AsMap()
		}
		return a2a.DataPart{Data: data, Metadata: map[string]any{metaType: typeFunctionResp}}
	case p.GetCodeExecutionResult() != nil:
		r := p.GetCodeExecutionResult()
		return a2a.DataPart{Data: nonEmpty("outcome", r.GetOutcome(), "output", r.GetOutput()),
			Metadata: map[string]any{metaType: typeCodeResult}}
	case p.GetExecutableCode() != nil:
		c := p.GetExecutableCode()
		return a2a.DataPart{Data: nonEmpty("language", c.GetLanguage(), "code", c.GetCode()),
			Metadata: map[string]any{metaType: typeExecutableCode}}
	case p.GetFileData() != nil:
		f := p.GetFileData()
		return a2a.FilePart{File: a2a.FileURI{URI: f.GetFileUri(),
			FileMeta: a2a.FileMeta{MimeType: f.GetMimeType(), Name: f.GetDisplayName()}}}
	case p.GetInlineData() != nil:
		b := p.GetInlineData()
		if dp, ok := embeddedDataPart(b); ok {
			return dp
		}
		return a2a.FilePart{File: a2a.FileBytes{Bytes: base64.StdEncoding.EncodeToString(b.GetData()),
			FileMeta: a2a.FileMeta{MimeType: b.GetMimeType(), Name: b.GetDisplayName()}}}
	}
	// Text is proto3's empty string when unset: ADK converts any part
	// with text, and a part with nothing else is text.
	tp := a2a.TextPart{Text: p.GetText()}
	if p.GetThought() {
		tp.Metadata = map[string]any{metaThought: true}
	}
	return tp
}

// embeddedDataPart reads a data part ADK carried through as tagged inline
// text.
func embeddedDataPart(b *v1.Blob) (a2a.DataPart, bool) {
	d := b.GetData()
	if b.GetMimeType() != dataPartMIME || !bytes.HasPrefix(d, []byte(dataPartStartTag)) || !bytes.HasSuffix(d, []byte(dataPartEndTag)) ||
		len(d) < len(dataPartStartTag)+len(dataPartEndTag) {
		return a2a.DataPart{}, false
	}
	var dp a2a.DataPart
	if err := json.Unmarshal(d[len(dataPartStartTag):len(d)-len(dataPartEndTag)], &dp); err != nil || dp.Data == nil {
		return a2a.DataPart{}, false
	}
	return dp, true
}

func nonEmpty(kv ...string) map[string]any {
	m := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			m[kv[i]] = kv[i+1]
		}
	}
	return m
}

// fromA2APart converts an A2A part as ADK's convert_a2a_part_to_genai_part
// does; a data part without ADK's type travels as tagged inline text.
func fromA2APart(p a2a.Part) (*v1.Part, error) {
	switch p := p.(type) {
	case a2a.TextPart:
		return &v1.Part{Text: p.Text, Thought: p.Metadata[metaThought] == true}, nil
	case *a2a.TextPart:
		return fromA2APart(*p)
	case a2a.FilePart:
		switch f := p.File.(type) {
		case a2a.FileURI:
			return &v1.Part{FileData: &v1.FileData{FileUri: f.URI, MimeType: f.MimeType, DisplayName: f.Name}}, nil
		case a2a.FileBytes:
			data, err := base64.StdEncoding.DecodeString(f.Bytes)
			if err != nil {
				return nil, fmt.Errorf("file part bytes: %w", err)
			}
			return &v1.Part{InlineData: &v1.Blob{Data: data, MimeType: f.MimeType, DisplayName: f.Name}}, nil
		}
		return nil, fmt.Errorf("file part without uri or bytes")
	case *a2a.FilePart:
		return fromA2APart(*p)
	case a2a.DataPart:
		return fromDataPart(p)
	case *a2a.DataPart:
		return fromA2APart(*p)
	}
	return nil, fmt.Errorf("unsupported part %T", p)
}

func fromDataPart(p a2a.DataPart) (*v1.Part, error) {
	str := func(k string) string { s, _ := p.Data[k].(string); return s }
	obj := func(k string) (*structpb.Struct, error) {
		m, ok := p.Data[k].(map[string]any)
		if !ok {
			return nil, nil
		}
		return structpb.NewStruct(m)
	}
	switch p.Metadata[metaType] {
	case typeFunctionCall:
		args, err := obj("args")
		if err != nil {
			return nil, fmt.Errorf("function call args: %w", err)
		}
		part := &v1.Part{FunctionCall: &v1.FunctionCall{Id: str("id"), Name: str("name"), Args: args}}
		if sig, ok := p.Metadata[metaThoughtSig].(string); ok {
			if b, err := base64.StdEncoding.DecodeString(sig); err == nil {
				part.ThoughtSignature = b
			}
		}
		return part, nil
	case typeFunctionResp:
		resp, err := obj("response")
		if err != nil {
			return nil, fmt.Errorf("function response: %w", err)
		}
		return &v1.Part{FunctionResponse: &v1.FunctionResponse{Id: str("id"), Name: str("name"), Response: resp}}, nil
	case typeCodeResult:
		return &v1.Part{CodeExecutionResult: &v1.CodeExecutionResult{Outcome: str("outcome"), Output: str("output")}}, nil
	case typeExecutableCode:
		return &v1.Part{ExecutableCode: &v1.ExecutableCode{Language: str("language"), Code: str("code")}}, nil
	}
	b, err := dataPartJSON(p)
	if err != nil {
		return nil, fmt.Errorf("data part: %w", err)
	}
	data := make([]byte, 0, len(dataPartStartTag)+len(b)+len(dataPartEndTag))
	data = append(append(append(data, dataPartStartTag...), b...), dataPartEndTag...)
	return &v1.Part{InlineData: &v1.Blob{MimeType: dataPartMIME, Data: data}}, nil
}

// PartToA2A converts a content part to its A2A form as ADK's
// convert_genai_part_to_a2a_part does; adk2 adds the part's metadata to
// the A2A part's as ADK 2.13 does.
func PartToA2A(p *v1.Part, adk2 bool) a2a.Part {
	ap := toA2APart(p)
	if adk2 {
		ap = withPartMetadata(ap, p.GetPartMetadata())
	}
	return ap
}

// withPartMetadata adds a content part's metadata to its A2A form's, the
// content part's keys winning, as ADK 2.13 does; ap unchanged without any.
func withPartMetadata(ap a2a.Part, pm *structpb.Struct) a2a.Part {
	if len(pm.GetFields()) == 0 {
		return ap
	}
	return WithMetadata(ap, pm.AsMap())
}

// WithMetadata returns p with add's keys set in a copy of its metadata
// (over any already there); a part of another kind is returned as is.
func WithMetadata(p a2a.Part, add map[string]any) a2a.Part {
	merge := func(meta map[string]any) map[string]any {
		out := make(map[string]any, len(meta)+len(add))
		maps.Copy(out, meta)
		maps.Copy(out, add)
		return out
	}
	switch p := p.(type) {
	case a2a.TextPart:
		p.Metadata = merge(p.Metadata)
		return p
	case a2a.FilePart:
		p.Metadata = merge(p.Metadata)
		return p
	case a2a.DataPart:
		p.Metadata = merge(p.Metadata)
		return p
	}
	return p
}

// partMetadata is an A2A part's metadata as ADK 2.13 keeps it on the
// content part: all of it, nil when there is none.
func partMetadata(p a2a.Part) (*structpb.Struct, error) {
	var meta map[string]any
	switch p := p.(type) {
	case a2a.TextPart:
		meta = p.Metadata
	case *a2a.TextPart:
		meta = p.Metadata
	case a2a.FilePart:
		meta = p.Metadata
	case *a2a.FilePart:
		meta = p.Metadata
	case a2a.DataPart:
		meta = p.Metadata
	case *a2a.DataPart:
		meta = p.Metadata
	}
	if len(meta) == 0 {
		return nil, nil
	}
	s, err := structpb.NewStruct(meta)
	if err != nil {
		return nil, fmt.Errorf("part metadata: %w", err)
	}
	return s, nil
}

// PartFromA2A converts an A2A part to a content part as ADK's
// convert_a2a_part_to_genai_part does.
func PartFromA2A(p a2a.Part) (*v1.Part, error) { return fromA2APart(p) }

// LongRunningKey is the metadata key of a data part that holds a
// long-running function call.
const LongRunningKey = metaLongRunning

// dataPartJSON writes a data part as pydantic dumps it: data, kind, then
// metadata when set (keys within data sorted).
func dataPartJSON(p a2a.DataPart) ([]byte, error) {
	data, err := json.Marshal(p.Data)
	if err != nil {
		return nil, err
	}
	b := append(append([]byte(`{"data":`), data...), `,"kind":"data"`...)
	if p.Metadata != nil {
		meta, err := json.Marshal(p.Metadata)
		if err != nil {
			return nil, err
		}
		b = append(append(b, `,"metadata":`...), meta...)
	}
	return append(b, '}'), nil
}
