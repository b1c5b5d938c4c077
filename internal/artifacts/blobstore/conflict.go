package blobstore

import (
	"errors"

	"github.com/aws/smithy-go"
	"gocloud.dev/gcerrors"
)

// versionTaken reports whether a conditional write failed because the blob
// exists: another writer saved that version first.
func versionTaken(err error) bool {
	return gcerrors.Code(err) == gcerrors.FailedPrecondition
}

// writeInFlight reports whether S3 refused a conditional write because
// another conditional write of the same key was in progress (409
// ConditionalRequestConflict); the write may be retried.
func writeInFlight(err error) bool {
	var apiErr smithy.APIError
	return errors.As(err, &apiErr) && apiErr.ErrorCode() == "ConditionalRequestConflict"
}
