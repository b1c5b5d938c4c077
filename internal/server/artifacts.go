package server

import (
	"context"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/artifacts"
)

// The ArtifactService: ADK's artifact routes over the store of
// --artifacts, each checked as a session route (valid key, app served,
// caller allowed for the user, user rate).

// artifactKey checks the request's session key and the store, and returns
// the artifact's key.
func (s *Server) artifactKey(ctx context.Context, app, user, session, filename string) (artifacts.Key, error) {
	if err := s.checkSessionKey(ctx, app, user, session); err != nil {
		return artifacts.Key{}, err
	}
	if s.artifacts == nil {
		return artifacts.Key{}, statusError(codes.FailedPrecondition, v1.ErrorReason_ARTIFACTS_NOT_CONFIGURED.String(), "Artifact service is not initialized.")
	}
	return artifacts.Key{AppName: app, UserID: user, SessionID: session, Filename: filename}, nil
}

// ListArtifactKeys implements [api.ArtifactServiceServer].
func (s *Server) ListArtifactKeys(ctx context.Context, req *api.ListArtifactKeysRequest) (*api.ListArtifactKeysResponse, error) {
	if _, err := s.artifactKey(ctx, req.GetAppName(), req.GetUserId(), req.GetSessionId(), ""); err != nil {
		return nil, err
	}
	names, err := s.artifacts.ListKeys(ctx, req.AppName, req.UserId, req.SessionId)
	if err != nil {
		return nil, toStatus(ctx, s.log, err)
	}
	return &api.ListArtifactKeysResponse{Filenames: names}, nil
}

// LoadArtifact implements [api.ArtifactServiceServer].
func (s *Server) LoadArtifact(ctx context.Context, req *api.LoadArtifactRequest) (*api.LoadArtifactResponse, error) {
	key, err := s.artifactKey(ctx, req.GetAppName(), req.GetUserId(), req.GetSessionId(), req.GetFilename())
	if err != nil {
		return nil, err
	}
	version := artifacts.Latest
	if req.Version != nil {
		if req.GetVersion() < 0 {
			return nil, invalid("version must not be negative")
		}
		version = int64(req.GetVersion())
	}
	part, err := s.artifacts.Load(ctx, key, version)
	if err != nil {
		return nil, toStatus(ctx, s.log, err)
	}
	return &api.LoadArtifactResponse{Artifact: part}, nil
}

// ListArtifactVersions implements [api.ArtifactServiceServer].
func (s *Server) ListArtifactVersions(ctx context.Context, req *api.ListArtifactVersionsRequest) (*api.ListArtifactVersionsResponse, error) {
	key, err := s.artifactKey(ctx, req.GetAppName(), req.GetUserId(), req.GetSessionId(), req.GetFilename())
	if err != nil {
		return nil, err
	}
	versions, err := s.artifacts.ListVersions(ctx, key)
	if err != nil {
		return nil, toStatus(ctx, s.log, err)
	}
	resp := &api.ListArtifactVersionsResponse{Versions: make([]int32, len(versions))}
	for i, v := range versions {
		resp.Versions[i] = int32(v)
	}
	return resp, nil
}

// ListArtifactVersionsMetadata implements [api.ArtifactServiceServer].
func (s *Server) ListArtifactVersionsMetadata(ctx context.Context, req *api.ListArtifactVersionsMetadataRequest) (*api.ListArtifactVersionsMetadataResponse, error) {
	key, err := s.artifactKey(ctx, req.GetAppName(), req.GetUserId(), req.GetSessionId(), req.GetFilename())
	if err != nil {
		return nil, err
	}
	versions, err := s.artifacts.ListArtifactVersions(ctx, key)
	if err != nil {
		return nil, toStatus(ctx, s.log, err)
	}
	resp := &api.ListArtifactVersionsMetadataResponse{Versions: make([]*api.ArtifactVersion, len(versions))}
	for i, v := range versions {
		resp.Versions[i] = artifactVersion(v)
	}
	return resp, nil
}

// GetArtifactVersion implements [api.ArtifactServiceServer].
func (s *Server) GetArtifactVersion(ctx context.Context, req *api.GetArtifactVersionRequest) (*api.GetArtifactVersionResponse, error) {
	key, err := s.artifactKey(ctx, req.GetAppName(), req.GetUserId(), req.GetSessionId(), req.GetFilename())
	if err != nil {
		return nil, err
	}
	if req.GetVersion() < 0 {
		return nil, invalid("version must not be negative")
	}
	v, err := s.artifacts.GetArtifactVersion(ctx, key, int64(req.GetVersion()))
	if err != nil {
		return nil, toStatus(ctx, s.log, err)
	}
	return &api.GetArtifactVersionResponse{ArtifactVersion: artifactVersion(v)}, nil
}

// SaveArtifact implements [api.ArtifactServiceServer].
func (s *Server) SaveArtifact(ctx context.Context, req *api.SaveArtifactRequest) (*api.SaveArtifactResponse, error) {
	noteRequest(ctx, req)
	key, err := s.artifactKey(ctx, req.GetAppName(), req.GetUserId(), req.GetSessionId(), req.GetFilename())
	if err != nil {
		return nil, err
	}
	if err := s.checkDepth("custom_metadata", req.GetCustomMetadata()); err != nil {
		return nil, err
	}
	version, err := s.artifacts.Save(ctx, key, req.GetArtifact(), req.GetCustomMetadata())
	if err != nil {
		return nil, toStatus(ctx, s.log, err)
	}
	v, err := s.artifacts.GetArtifactVersion(ctx, key, version)
	if err != nil {
		return nil, toStatus(ctx, s.log, err)
	}
	return &api.SaveArtifactResponse{ArtifactVersion: artifactVersion(v)}, nil
}

// DeleteArtifact implements [api.ArtifactServiceServer].
func (s *Server) DeleteArtifact(ctx context.Context, req *api.DeleteArtifactRequest) (*api.DeleteArtifactResponse, error) {
	noteRequest(ctx, req)
	key, err := s.artifactKey(ctx, req.GetAppName(), req.GetUserId(), req.GetSessionId(), req.GetFilename())
	if err != nil {
		return nil, err
	}
	if err := s.artifacts.Delete(ctx, key); err != nil {
		return nil, toStatus(ctx, s.log, err)
	}
	return &api.DeleteArtifactResponse{}, nil
}

func artifactVersion(v artifacts.Version) *api.ArtifactVersion {
	return &api.ArtifactVersion{Version: proto.Int32(int32(v.Version)), CanonicalUri: v.CanonicalURI, CustomMetadata: v.CustomMetadata,
		CreateTime: float64(v.CreateTime.UnixMicro()) / 1e6, MimeType: v.MimeType}
}
