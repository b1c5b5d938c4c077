package gemini

import (
	"errors"
	"iter"
	"testing"

	"google.golang.org/genai"
)

// chunks yields n empty chunks, then panics when panicAfter.
func chunks(n int, panicAfter bool) iter.Seq2[*genai.GenerateContentResponse, error] {
	return func(yield func(*genai.GenerateContentResponse, error) bool) {
		for range n {
			if !yield(&genai.GenerateContentResponse{}, nil) {
				break // as the SDK, go on to code that may panic
			}
		}
		if panicAfter {
			var v any = ""
			_ = v.([]any)
		}
	}
}

func TestRecoverStream(t *testing.T) {
	t.Parallel()
	t.Run("a panic of the SDK ends the stream with an error", func(t *testing.T) {
		t.Parallel()
		var got []error
		for _, err := range recoverStream(chunks(2, true)) {
			got = append(got, err)
		}
		if len(got) != 3 || got[0] != nil || got[1] != nil || !errors.Is(got[2], errUnreadableAnswer) {
			t.Errorf("yielded %v, want two chunks and errUnreadableAnswer", got)
		}
	})
	t.Run("nothing is yielded after the loop stopped", func(t *testing.T) {
		t.Parallel()
		n := 0
		for range recoverStream(chunks(2, true)) { //nolint:errcheck // counts iterations; the error is not what this case checks.
			n++
			break
		}
		if n != 1 {
			t.Errorf("%d iterations, want 1", n)
		}
	})
	t.Run("a panic of the loop body is not recovered", func(t *testing.T) {
		t.Parallel()
		defer func() {
			if r := recover(); r != "body" {
				t.Errorf("recovered %v, want the body's panic", r)
			}
		}()
		for range recoverStream(chunks(1, false)) { //nolint:errcheck // the body panics on the first item; its error is not looked at.
			panic("body")
		}
	})
}

func TestRecoverAnswer(t *testing.T) {
	t.Parallel()
	_, err := recoverAnswer(func() (*genai.GenerateContentResponse, error) {
		var v any = ""
		return nil, errors.New(v.(string) + string(v.([]byte)))
	})
	if !errors.Is(err, errUnreadableAnswer) {
		t.Errorf("err = %v, want errUnreadableAnswer", err)
	}
}
