package gemini

import (
	"errors"
	"fmt"
	"iter"

	"google.golang.org/genai"
)

// errUnreadableAnswer marks an answer the SDK failed on while converting
// it: its converters assert the JSON types of fields (e.g. a "candidates"
// that is not a list) and panic when an answer has others. Such a panic
// would end the whole process; the call fails with this error instead.
var errUnreadableAnswer = errors.New("the answer has fields of unexpected types")

// recoverAnswer returns the result of f, or errUnreadableAnswer when it
// panics.
func recoverAnswer(f func() (*genai.GenerateContentResponse, error)) (resp *genai.GenerateContentResponse, err error) {
	defer func() {
		if r := recover(); r != nil {
			resp, err = nil, fmt.Errorf("%w: %v", errUnreadableAnswer, r)
		}
	}()
	return f()
}

// recoverStream yields what seq yields; a panic in seq itself (not in the
// loop body it calls) ends the stream with errUnreadableAnswer.
func recoverStream(seq iter.Seq2[*genai.GenerateContentResponse, error]) iter.Seq2[*genai.GenerateContentResponse, error] {
	return func(yield func(*genai.GenerateContentResponse, error) bool) {
		inBody, stopped := false, false
		defer func() {
			if inBody {
				return // the loop body's panic goes on unrecovered
			}
			if r := recover(); r != nil && !stopped {
				yield(nil, fmt.Errorf("%w: %v", errUnreadableAnswer, r))
			}
		}()
		seq(func(chunk *genai.GenerateContentResponse, err error) bool {
			inBody = true
			more := yield(chunk, err)
			inBody, stopped = false, !more
			return more
		})
	}
}
