package server

import (
	"context"
	"fmt"
	"sync"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/encoding/proto"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/status"
	protov2 "google.golang.org/protobuf/proto"
)

// reasonMalformed is the ErrorInfo reason of a request whose bytes do not
// decode.
const reasonMalformed = "MALFORMED_REQUEST"

// DecodeOptions returns the gRPC server options that answer a request
// whose bytes do not decode (a string that is not UTF-8, nesting past
// protobuf's recursion limit, a broken wire format) with INVALID_ARGUMENT
// and ErrorInfo, where gRPC itself answers INTERNAL. They apply to every
// service of the server, unary and streaming, and to every message of a
// stream; on Connect, a later message that does not decode ends the
// invocation with that status.
//
// gRPC turns any error of a codec into INTERNAL, and for a unary call it
// decodes before any interceptor runs. So the codec reports success, with
// the message reset, and records the failure; an interceptor that every
// decoded message passes through then answers it. Both are needed: use all
// the options together, before any other interceptor option, so that no
// interceptor sees a message that failed to decode (and none leaves its
// failure unanswered).
func DecodeOptions() []grpc.ServerOption {
	f := &decodeFailures{}
	return []grpc.ServerOption{
		grpc.ForceServerCodecV2(requestCodec{base: encoding.GetCodecV2(proto.Name), failures: f}),
		grpc.ChainUnaryInterceptor(f.unary),
		grpc.ChainStreamInterceptor(f.stream),
	}
}

// decodeFailures holds the decode errors of messages that no interceptor
// has taken yet, by message. It is safe for concurrent use.
type decodeFailures struct {
	m sync.Map // any (the message) → error
}

// take returns the INVALID_ARGUMENT status of msg if it failed to decode,
// and forgets the failure.
func (f *decodeFailures) take(msg any) error {
	v, ok := f.m.LoadAndDelete(msg)
	if !ok {
		return nil
	}
	st := status.New(codes.InvalidArgument, "malformed request: "+v.(error).Error())
	if withInfo, err := st.WithDetails(&errdetails.ErrorInfo{Reason: reasonMalformed, Domain: errorDomain}); err == nil {
		st = withInfo
	}
	return st.Err()
}

func (f *decodeFailures) unary(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	if err := f.take(req); err != nil {
		return nil, err
	}
	return handler(ctx, req)
}

func (f *decodeFailures) stream(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	return handler(srv, &checkedStream{ServerStream: ss, failures: f})
}

// checkedStream answers a received message that failed to decode with its
// status instead of the message.
type checkedStream struct {
	grpc.ServerStream
	failures *decodeFailures
}

func (s *checkedStream) RecvMsg(m any) error {
	if err := s.ServerStream.RecvMsg(m); err != nil {
		return err
	}
	return s.failures.take(m)
}

// requestCodec is gRPC's protobuf codec, except that a message that does
// not decode is reset and recorded in failures instead of failing.
type requestCodec struct {
	base     encoding.CodecV2
	failures *decodeFailures
}

func (c requestCodec) Marshal(v any) (mem.BufferSlice, error) { return c.base.Marshal(v) }

func (c requestCodec) Unmarshal(data mem.BufferSlice, v any) error {
	err := c.base.Unmarshal(data, v)
	if err == nil {
		return nil
	}
	m, ok := v.(protov2.Message)
	if !ok {
		return err
	}
	protov2.Reset(m)
	c.failures.m.Store(v, fmt.Errorf("%s: %w", m.ProtoReflect().Descriptor().FullName(), err))
	return nil
}

func (c requestCodec) Name() string { return c.base.Name() }
