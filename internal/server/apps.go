package server

import (
	"context"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// ListApps implements [v1.AppServiceServer].
func (s *Server) ListApps(ctx context.Context, _ *v1.ListAppsRequest) (*v1.ListAppsResponse, error) {
	return &v1.ListAppsResponse{AppNames: s.names}, nil
}

// GetApp implements [v1.AppServiceServer].
func (s *Server) GetApp(ctx context.Context, req *v1.GetAppRequest) (*v1.GetAppResponse, error) {
	a, err := s.app(req.GetAppName())
	if err != nil {
		return nil, toStatus(ctx, s.log, err)
	}
	return &v1.GetAppResponse{App: a.Info}, nil
}
