package graph

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"unicode"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// CredentialRequestName is the function call that asks the user for a
// credential, ADK's REQUEST_CREDENTIAL_FUNCTION_CALL_NAME.
const CredentialRequestName = "adk_request_credential"

// authInterruptPrefix starts the interrupt id of a node's credential
// request, ADK's auth_interrupt_id.
const authInterruptPrefix = "wf_auth:"

// errMalformedAuth is ADK's WorkflowDataError for an answer it cannot
// read a credential from.
const errMalformedAuth = "The auth response is malformed or does not carry back the state generated for this auth request. " +
	"Return the auth config from the credential request with the authorization result filled in."

// authField reads an AuthConfig field written in camelCase or snake_case.
func authField(s *structpb.Struct, camel string) *structpb.Value {
	if v, ok := s.GetFields()[camel]; ok {
		return v
	}
	return s.GetFields()[snake(camel)]
}

// snake is a camelCase name in snake_case.
func snake(camel string) string {
	var b strings.Builder
	for _, r := range camel {
		if unicode.IsUpper(r) {
			b.WriteByte('_')
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// snakeKeys copies v with every object key in snake_case, as ADK's
// model_dump writes an AuthCredential.
func snakeKeys(v *structpb.Value) *structpb.Value {
	switch k := v.GetKind().(type) {
	case *structpb.Value_StructValue:
		out := &structpb.Struct{Fields: map[string]*structpb.Value{}}
		for key, f := range k.StructValue.GetFields() {
			out.Fields[snake(key)] = snakeKeys(f)
		}
		return structpb.NewStructValue(out)
	case *structpb.Value_ListValue:
		out := &structpb.ListValue{}
		for _, f := range k.ListValue.GetValues() {
			out.Values = append(out.Values, snakeKeys(f))
		}
		return structpb.NewListValue(out)
	}
	return v
}

// camelKeys copies v with every object key in camelCase, as ADK dumps
// auth models by alias.
func camelKeys(v *structpb.Value) *structpb.Value {
	switch k := v.GetKind().(type) {
	case *structpb.Value_StructValue:
		out := &structpb.Struct{Fields: map[string]*structpb.Value{}}
		for key, f := range k.StructValue.GetFields() {
			parts := strings.Split(key, "_")
			for i := 1; i < len(parts); i++ {
				if parts[i] != "" {
					parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
				}
			}
			out.Fields[strings.Join(parts, "")] = camelKeys(f)
		}
		return structpb.NewStructValue(out)
	case *structpb.Value_ListValue:
		out := &structpb.ListValue{}
		for _, f := range k.ListValue.GetValues() {
			out.Values = append(out.Values, camelKeys(f))
		}
		return structpb.NewListValue(out)
	}
	return v
}

// CredentialKey is the state key (after "temp:") of a node's credential:
// the auth config's credentialKey, or one made as ADK makes it, from the
// scheme's and the raw credential's types and digests.
func CredentialKey(auth *structpb.Struct) string {
	if k := authField(auth, "credentialKey").GetStringValue(); k != "" {
		return k
	}
	scheme := authField(auth, "authScheme").GetStructValue()
	raw := authField(auth, "rawAuthCredential").GetStructValue()
	digest := func(s *structpb.Struct) string {
		b, _ := protojson.MarshalOptions{}.Marshal(s)
		sum := sha256.Sum256(b)
		return hex.EncodeToString(sum[:])[:16]
	}
	key := "adk_" + scheme.GetFields()["type"].GetStringValue() + "_" + digest(scheme)
	if raw != nil {
		key += "_" + authField(raw, "authType").GetStringValue() + "_" + digest(raw)
	}
	return key
}

// authMessage is ADK's _build_auth_message.
func authMessage(auth *structpb.Struct) string {
	raw := authField(auth, "rawAuthCredential").GetStructValue()
	switch authField(raw, "authType").GetStringValue() {
	case "":
		return "Please provide your authentication credentials."
	case "apiKey":
		name := authField(auth, "authScheme").GetStructValue().GetFields()["name"].GetStringValue()
		if name == "" {
			name = "API key"
		}
		return "Please provide your API key for " + name + "."
	case "oauth2", "openIdConnect":
		return "Please complete the authentication flow."
	}
	return "Please provide your authentication credentials."
}

// credentialRequestEvent is ADK's create_auth_request_event: an
// adk_request_credential call, long-running, whose id is the node run's
// auth interrupt id.
func credentialRequestEvent(ictx *runtime.InvocationContext, path string, auth *structpb.Struct) *v1.Event {
	id := authInterruptPrefix + path
	cfg := &structpb.Struct{Fields: map[string]*structpb.Value{"credentialKey": structpb.NewStringValue(CredentialKey(auth))}}
	if s := authField(auth, "authScheme"); s != nil {
		cfg.Fields["authScheme"] = s
	}
	if raw := authField(auth, "rawAuthCredential"); raw != nil {
		cfg.Fields["rawAuthCredential"] = camelKeys(raw)
	}
	args := &structpb.Struct{Fields: map[string]*structpb.Value{"functionCallId": structpb.NewStringValue(id),
		"authConfig": structpb.NewStructValue(cfg), "message": structpb.NewStringValue(authMessage(auth))}}
	ev := event(ictx, path)
	ev.Content = &v1.Content{Role: "model", Parts: []*v1.Part{{FunctionCall: &v1.FunctionCall{Id: id, Name: CredentialRequestName, Args: args}}}}
	ev.LongRunningToolIds = []string{id}
	return ev
}

// credentialFromAnswer reads the credential of an answer to a node's
// credential request in ADK's three formats (process_auth_resume): an
// AuthConfig with the exchanged credential, an AuthCredential, or a plain
// value for an API key. It returns the credential as ADK dumps an
// AuthCredential, or false when the answer is malformed.
func credentialFromAnswer(auth *structpb.Struct, answer *structpb.Value) (*structpb.Value, bool) {
	if obj := answer.GetStructValue(); obj != nil && authField(obj, "authScheme") != nil {
		exchanged := authField(obj, "exchangedAuthCredential")
		if exchanged.GetStructValue() == nil {
			return nil, false
		}
		return snakeKeys(exchanged), true
	}
	raw := authField(auth, "rawAuthCredential").GetStructValue()
	if authField(raw, "authType").GetStringValue() == "apiKey" {
		if s, ok := answer.GetKind().(*structpb.Value_StringValue); ok && s.StringValue != "" {
			return structpb.NewStructValue(&structpb.Struct{Fields: map[string]*structpb.Value{
				"auth_type": structpb.NewStringValue("apiKey"), "api_key": structpb.NewStringValue(s.StringValue)}}), true
		}
	}
	if obj := answer.GetStructValue(); obj != nil && authField(obj, "authType").GetStringValue() != "" {
		return snakeKeys(answer), true
	}
	return nil, false
}
