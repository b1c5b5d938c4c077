package server

import (
	"context"
	"fmt"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// AddSessionToMemory implements [api.SessionServiceServer]: the stored
// session, all its events, goes to the memory service, as ADK's PATCH
// .../memory does.
func (s *Server) AddSessionToMemory(ctx context.Context, req *api.AddSessionToMemoryRequest) (*api.AddSessionToMemoryResponse, error) {
	noteRequest(ctx, req)
	if err := s.checkSessionKey(ctx, req.GetAppName(), req.GetUserId(), req.GetSessionId()); err != nil {
		return nil, err
	}
	if s.memory == nil {
		return nil, statusError(codes.FailedPrecondition, v1.ErrorReason_MEMORY_NOT_CONFIGURED.String(), "Memory service is not configured.")
	}
	sess, err := s.sessions.Get(ctx, sessions.GetRequest{AppName: req.AppName, UserID: req.UserId, SessionID: req.SessionId})
	if err != nil {
		return nil, toStatus(ctx, s.log, err)
	}
	if err := s.memory.AddSession(ctx, sess); err != nil {
		return nil, toStatus(ctx, s.log, err)
	}
	return &api.AddSessionToMemoryResponse{}, nil
}

// SearchMemory implements [api.SessionServiceServer]: what load_memory
// would find for the user.
func (s *Server) SearchMemory(ctx context.Context, req *api.SearchMemoryRequest) (*api.SearchMemoryResponse, error) {
	if _, err := s.app(req.GetAppName()); err != nil {
		return nil, toStatus(ctx, s.log, err)
	}
	if err := validateID("user_id", req.GetUserId()); err != nil {
		return nil, err
	}
	if err := s.authorize(ctx, req.UserId); err != nil {
		return nil, err
	}
	if err := s.limitUser(req.AppName, req.UserId); err != nil {
		return nil, err
	}
	if s.memory == nil {
		return nil, statusError(codes.FailedPrecondition, v1.ErrorReason_MEMORY_NOT_CONFIGURED.String(), "Memory service is not configured.")
	}
	found, err := s.memory.Search(ctx, req.AppName, req.UserId, req.GetQuery())
	if err != nil {
		return nil, toStatus(ctx, s.log, err)
	}
	resp := &api.SearchMemoryResponse{Memories: make([]*api.MemoryEntry, 0, len(found))}
	for _, e := range found {
		resp.Memories = append(resp.Memories, &api.MemoryEntry{Content: e.Content, CustomMetadata: &structpb.Struct{},
			Id: e.ID, Author: e.Author, Timestamp: e.Timestamp})
	}
	if n := proto.Size(resp); n > s.maxResponseBytes {
		return nil, statusError(codes.ResourceExhausted, v1.ErrorReason_RESPONSE_TOO_LARGE.String(), fmt.Sprintf(
			"the memories found (%d bytes) are more than the %d bytes a response may carry; narrow the query", n, s.maxResponseBytes))
	}
	return resp, nil
}
