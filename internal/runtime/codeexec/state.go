package codeexec

import (
	"encoding/base64"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"
)

// The session state keys of ADK's CodeExecutorContext.
const (
	// ContextKey holds the executor's persistent context; it is the only
	// key a result event's state_delta carries.
	ContextKey = "_code_execution_context"
	// ExecutionIDKey (in the context) is the stateful execution id.
	ExecutionIDKey = "execution_session_id"
	// ProcessedFilesKey (in the context) lists the data files explored.
	ProcessedFilesKey = "processed_input_files"
	// InputFilesKey holds the data files of the invocation, in memory only.
	InputFilesKey = "_code_executor_input_files"
	// ErrorCountsKey holds the failures by invocation id, in memory only.
	ErrorCountsKey = "_code_executor_error_counts"
)

// StateStore is the session state an executor reads and writes in place, as
// ADK's CodeExecutorContext writes invocation_context.session.state: writes
// are seen by the invocation and stored only through a state_delta.
// [runtime.InvocationContext] implements it.
type StateStore interface {
	StateValue(key string) (*structpb.Value, bool)
	SetSessionState(key string, v *structpb.Value)
}

// State is ADK's CodeExecutorContext over a session's state. It is not safe
// for concurrent use.
type State struct {
	store StateStore
	ctx   *structpb.Struct
}

// LoadState reads the executor's context from store, creating it in place
// as ADK does when it is missing.
func LoadState(store StateStore) *State {
	s := &State{store: store}
	if v, ok := store.StateValue(ContextKey); ok && v.GetStructValue() != nil {
		s.ctx = proto.CloneOf(v.GetStructValue())
	} else {
		s.ctx = &structpb.Struct{Fields: map[string]*structpb.Value{}}
	}
	if s.ctx.Fields == nil {
		s.ctx.Fields = map[string]*structpb.Value{}
	}
	s.save()
	return s
}

func (s *State) save() {
	s.store.SetSessionState(ContextKey, structpb.NewStructValue(proto.CloneOf(s.ctx)))
}

// Delta is the state_delta of a result event: the whole context.
func (s *State) Delta() *structpb.Struct {
	return &structpb.Struct{Fields: map[string]*structpb.Value{ContextKey: structpb.NewStructValue(proto.CloneOf(s.ctx))}}
}

// ExecutionID returns the stateful execution id, if set.
func (s *State) ExecutionID() string { return s.ctx.Fields[ExecutionIDKey].GetStringValue() }

// SetExecutionID records the stateful execution id.
func (s *State) SetExecutionID(id string) {
	s.ctx.Fields[ExecutionIDKey] = structpb.NewStringValue(id)
	s.save()
}

// ProcessedFileNames lists the data files explored so far.
func (s *State) ProcessedFileNames() []string {
	var names []string
	for _, v := range s.ctx.Fields[ProcessedFilesKey].GetListValue().GetValues() {
		names = append(names, v.GetStringValue())
	}
	return names
}

// AddProcessedFileNames records explored data files.
func (s *State) AddProcessedFileNames(names ...string) {
	list := s.ctx.Fields[ProcessedFilesKey].GetListValue()
	if list == nil {
		list = &structpb.ListValue{}
	}
	for _, n := range names {
		list.Values = append(list.Values, structpb.NewStringValue(n))
	}
	s.ctx.Fields[ProcessedFilesKey] = structpb.NewListValue(list)
	s.save()
}

// InputFiles returns the data files held for the code, as ADK holds them:
// name, content in base64 and MIME type.
func (s *State) InputFiles() []File {
	v, _ := s.store.StateValue(InputFilesKey)
	var files []File
	for _, f := range v.GetListValue().GetValues() {
		fields := f.GetStructValue().GetFields()
		data, err := base64.StdEncoding.DecodeString(fields["content"].GetStringValue())
		if err != nil {
			continue
		}
		files = append(files, File{Name: fields["name"].GetStringValue(), MimeType: fields["mime_type"].GetStringValue(), Content: data})
	}
	return files
}

// AddInputFiles holds files for the code.
func (s *State) AddInputFiles(files ...File) {
	v, _ := s.store.StateValue(InputFilesKey)
	list := &structpb.ListValue{}
	if l := v.GetListValue(); l != nil {
		list = proto.CloneOf(l)
	}
	for _, f := range files {
		list.Values = append(list.Values, structpb.NewStructValue(&structpb.Struct{Fields: map[string]*structpb.Value{
			"name":      structpb.NewStringValue(f.Name),
			"content":   structpb.NewStringValue(base64.StdEncoding.EncodeToString(f.Content)),
			"mime_type": structpb.NewStringValue(f.MimeType),
		}}))
	}
	s.store.SetSessionState(InputFilesKey, structpb.NewListValue(list))
}

// ErrorCount is the number of consecutive failures of the invocation.
func (s *State) ErrorCount(invocationID string) int {
	v, _ := s.store.StateValue(ErrorCountsKey)
	return int(v.GetStructValue().GetFields()[invocationID].GetNumberValue())
}

// IncrementErrorCount counts a failure of the invocation.
func (s *State) IncrementErrorCount(invocationID string) {
	s.setErrorCount(invocationID, s.ErrorCount(invocationID)+1)
}

// ResetErrorCount forgets the invocation's failures after a success.
func (s *State) ResetErrorCount(invocationID string) { s.setErrorCount(invocationID, 0) }

func (s *State) setErrorCount(invocationID string, n int) {
	v, ok := s.store.StateValue(ErrorCountsKey)
	if !ok && n == 0 {
		return
	}
	counts := &structpb.Struct{Fields: map[string]*structpb.Value{}}
	if c := v.GetStructValue(); c != nil {
		counts = proto.CloneOf(c)
		if counts.Fields == nil {
			counts.Fields = map[string]*structpb.Value{}
		}
	}
	if n == 0 {
		delete(counts.Fields, invocationID)
	} else {
		counts.Fields[invocationID] = structpb.NewNumberValue(float64(n))
	}
	s.store.SetSessionState(ErrorCountsKey, structpb.NewStructValue(counts))
}
