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

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// reasonMalformed is the ErrorInfo reason of a request whose bytes do not
// decode.
var reasonMalformed = v1.ErrorReason_MALFORMED_REQUEST.String()

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
func DecodeOptions() []grpc.ServerOption { return decodeOptions(nil) }

// ReceiveOptions returns [DecodeOptions] with the server's request budget
// (see [Config.MaxInflightRequestBytes]): each received message is charged
// to it, from its wire size, before it is decoded, and the charge is held
// until the call's handler returns (a unary call) or the stream receives
// its next message or ends. A message the budget cannot hold is not
// decoded and is answered RESOURCE_EXHAUSTED (SERVER_BUSY) with a
// RetryInfo. Use these options instead of DecodeOptions, as they say.
func (s *Server) ReceiveOptions() []grpc.ServerOption { return decodeOptions(s.budget) }

func decodeOptions(budget *requestBudget) []grpc.ServerOption {
	f := &received{budget: budget}
	return []grpc.ServerOption{
		grpc.ForceServerCodecV2(requestCodec{base: encoding.GetCodecV2(proto.Name), received: f}),
		grpc.ChainUnaryInterceptor(f.unary),
		grpc.ChainStreamInterceptor(f.stream),
	}
}

// received holds what the codec learnt of the messages that no interceptor
// has taken yet, by message: the status of one that failed to decode or
// was refused for the budget, and the charge of one that was decoded. It
// is safe for concurrent use.
type received struct {
	budget   *requestBudget
	failures sync.Map // any (the message) → error (its status)
	charges  sync.Map // any (the message) → int64 (taken from budget)
}

// take returns the status of msg if it failed to decode or was refused,
// else the charge it holds, and forgets both.
func (f *received) take(msg any) (charge int64, err error) {
	if v, ok := f.failures.LoadAndDelete(msg); ok {
		return 0, v.(error)
	}
	if v, ok := f.charges.LoadAndDelete(msg); ok {
		return v.(int64), nil
	}
	return 0, nil
}

func (f *received) unary(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	charge, err := f.take(req)
	if err != nil {
		return nil, err
	}
	defer f.budget.put(charge)
	return handler(ctx, req)
}

func (f *received) stream(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	cs := &checkedStream{ServerStream: ss, received: f}
	defer cs.end()
	return handler(srv, cs)
}

// checkedStream answers a received message that failed to decode, or was
// refused for the budget, with its status instead of the message, and
// holds the charge of the last message received until the next one or
// the stream's end.
type checkedStream struct {
	grpc.ServerStream
	received *received

	mu    sync.Mutex
	held  int64
	ended bool
}

func (s *checkedStream) RecvMsg(m any) error {
	err := s.ServerStream.RecvMsg(m)
	if err != nil {
		s.hold(0)
		return err
	}
	charge, err := s.received.take(m)
	s.hold(charge)
	return err
}

// hold keeps charge in place of the charge held so far, which it gives
// back; after the stream's end it gives back charge too.
func (s *checkedStream) hold(charge int64) {
	s.mu.Lock()
	prev := s.held
	if s.ended {
		prev, charge = prev+charge, 0
	}
	s.held = charge
	s.mu.Unlock()
	s.received.budget.put(prev)
}

// end gives back the charge held, and any taken later at once.
func (s *checkedStream) end() {
	s.mu.Lock()
	s.ended = true
	s.mu.Unlock()
	s.hold(0)
}

// requestCodec is gRPC's protobuf codec, except that a message that does
// not decode, or that the budget cannot hold, is reset and recorded in
// received instead of failing, and the charge of one that decodes is
// recorded there too.
type requestCodec struct {
	base     encoding.CodecV2
	received *received
}

func (c requestCodec) Marshal(v any) (mem.BufferSlice, error) { return c.base.Marshal(v) }

func (c requestCodec) Unmarshal(data mem.BufferSlice, v any) error {
	b := c.received.budget
	charge := b.charge(int64(data.Len()))
	if !b.take(charge) {
		if m, ok := v.(protov2.Message); ok {
			protov2.Reset(m)
			c.received.failures.Store(v, errServerBusy())
			return nil
		}
		return errServerBusy()
	}
	err := c.base.Unmarshal(data, v)
	m, ok := v.(protov2.Message)
	switch {
	case err == nil && ok && charge > 0:
		c.received.charges.Store(v, charge)
		return nil
	case err == nil:
		b.put(charge)
		return nil
	}
	b.put(charge)
	if !ok {
		return err
	}
	protov2.Reset(m)
	c.received.failures.Store(v, malformed(fmt.Errorf("%s: %w", m.ProtoReflect().Descriptor().FullName(), err)))
	return nil
}

// malformed is the INVALID_ARGUMENT status of a message that did not
// decode.
func malformed(err error) error {
	st := status.New(codes.InvalidArgument, "malformed request: "+err.Error())
	if withInfo, err := st.WithDetails(&errdetails.ErrorInfo{Reason: reasonMalformed, Domain: errorDomain}); err == nil {
		st = withInfo
	}
	return st.Err()
}

func (c requestCodec) Name() string { return c.base.Name() }
