package loadclient_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/loadclient"
)

// fakeStream is a Connect stream whose Recv answers msgs, then err.
type fakeStream struct {
	grpc.BidiStreamingClient[api.ConnectRequest, api.ConnectResponse]
	msgs int
	err  error
}

func (f *fakeStream) Recv() (*api.ConnectResponse, error) {
	if f.msgs > 0 {
		f.msgs--
		return &api.ConnectResponse{}, nil
	}
	return nil, f.err
}

func TestRecvStatus(t *testing.T) {
	t.Parallel()
	unavailable := status.Error(codes.Unavailable, "gone")
	other := errors.New("not a send EOF")
	tests := []struct {
		name    string
		sendErr error
		stream  *fakeStream
		want    error
	}{
		{"send error other than EOF", other, &fakeStream{err: unavailable}, other},
		{"status after messages", io.EOF, &fakeStream{msgs: 2, err: unavailable}, unavailable},
		{"ended OK without done", io.EOF, &fakeStream{msgs: 1, err: io.EOF}, loadclient.ErrNoDone},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := loadclient.RecvStatus(tt.stream, tt.sendErr); !errors.Is(got, tt.want) {
				t.Errorf("RecvStatus = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestWriteApp(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file, err := loadclient.WriteApp(dir, "bench", []byte("name: a\n"))
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "bench", "root_agent.yaml"); file != want {
		t.Errorf("file = %s, want %s", file, want)
	}
	if got, err := os.ReadFile(file); err != nil || string(got) != "name: a\n" {
		t.Errorf("file holds %q, %v", got, err)
	}
}
