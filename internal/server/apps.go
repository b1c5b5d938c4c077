package server

import (
	"context"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
)

// ListApps implements [api.AppServiceServer].
func (s *Server) ListApps(ctx context.Context, _ *api.ListAppsRequest) (*api.ListAppsResponse, error) {
	return &api.ListAppsResponse{AppNames: s.names}, nil
}

// GetApp implements [api.AppServiceServer].
func (s *Server) GetApp(ctx context.Context, req *api.GetAppRequest) (*api.GetAppResponse, error) {
	a, err := s.app(req.GetAppName())
	if err != nil {
		return nil, toStatus(ctx, s.log, err)
	}
	return &api.GetAppResponse{App: a.Info}, nil
}
