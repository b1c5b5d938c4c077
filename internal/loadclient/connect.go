package loadclient

import (
	"errors"
	"io"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
)

// ErrNoDone is a Connect stream that ended OK without done: UNKNOWN.
var ErrNoDone = status.Error(codes.Unknown, "the stream ended without done")

// RecvStatus returns the stream's status after a failed send: gRPC reports
// the reason on Recv, a send only sees io.EOF. A send error other than
// io.EOF is returned as it is; a stream that then ends OK is [ErrNoDone].
func RecvStatus(stream grpc.BidiStreamingClient[api.ConnectRequest, api.ConnectResponse], sendErr error) error {
	if !errors.Is(sendErr, io.EOF) {
		return sendErr
	}
	for {
		if _, err := stream.Recv(); err != nil {
			if errors.Is(err, io.EOF) {
				return ErrNoDone
			}
			return err
		}
	}
}
