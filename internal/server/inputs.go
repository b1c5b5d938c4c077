package server

import (
	"errors"
	"strconv"
	"strings"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/limits"
)

// reasonTooDeep is the ErrorInfo reason of a request holding a value nested
// deeper than the server's cap.
var reasonTooDeep = v1.ErrorReason_NESTING_TOO_DEEP.String()

// checkDepth returns INVALID_ARGUMENT naming the first value of m nested
// more than the server's cap, with the field in ErrorInfo's metadata and in
// a BadRequest field violation. Every handler checks what it will store
// with it before anything is written: REST reaches the handlers directly,
// so an interceptor alone would not see it.
func (s *Server) checkDepth(field string, m proto.Message) error {
	return depthStatus(limits.CheckDepth(field, m, s.maxDepth))
}

// checkValueDepth is checkDepth for one JSON-like value.
func (s *Server) checkValueDepth(field string, v *structpb.Value) error {
	return depthStatus(limits.CheckValueDepth(field, v, s.maxDepth))
}

// checkRunRequest checks the parts of a run request that the engine stores
// or copies onto events; prefix names the request in the message ("" for
// Run, "start.run." for Connect).
func (s *Server) checkRunRequest(prefix string, req *api.RunRequest) error {
	if err := s.checkDepth(prefix+"new_message", req.GetNewMessage()); err != nil {
		return err
	}
	if err := s.checkDepth(prefix+"state_delta", req.GetStateDelta()); err != nil {
		return err
	}
	return s.checkDepth(prefix+"run_config.custom_metadata", req.GetRunConfig().GetCustomMetadata())
}

// checkToolDeclarations checks the schemas of a Connect client's tools,
// which the engine sends to the model and copies into requests.
func (s *Server) checkToolDeclarations(decls []*api.ToolDeclaration) error {
	for i, d := range decls {
		if err := s.checkDepth(indexed("start.tools", i), d); err != nil {
			return err
		}
	}
	return nil
}

// checkToolResult checks a Connect client's tool result before it reaches
// the model or the store.
func (s *Server) checkToolResult(res *api.ToolResult) error {
	v := res.GetResponse()
	if _, ok := v.GetKind().(*structpb.Value_StructValue); v != nil && !ok {
		// Any other value is stored wrapped as {"result": value}, one
		// level deeper: check it so.
		err := limits.CheckDepth("", &structpb.Struct{Fields: map[string]*structpb.Value{"result": v}}, s.maxDepth)
		var de *limits.DepthError
		if errors.As(err, &de) {
			de.Field = "tool_result.response" + strings.TrimPrefix(de.Field, ".result")
		}
		if err := depthStatus(err); err != nil {
			return err
		}
	} else if err := s.checkValueDepth("tool_result.response", v); err != nil {
		return err
	}
	return s.checkDepth("tool_result.actions", res.GetActions())
}

// depthStatus turns a [*limits.DepthError] into its INVALID_ARGUMENT status.
func depthStatus(err error) error {
	var de *limits.DepthError
	if !errors.As(err, &de) {
		return err
	}
	st := status.New(codes.InvalidArgument, de.Error())
	if withDetails, derr := st.WithDetails(
		&errdetails.ErrorInfo{Reason: reasonTooDeep, Domain: errorDomain, Metadata: map[string]string{"field": de.Field}},
		&errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{{Field: de.Field, Description: de.Error()}}},
	); derr == nil {
		st = withDetails
	}
	return st.Err()
}

func indexed(field string, i int) string {
	return field + "[" + strconv.Itoa(i) + "]"
}
