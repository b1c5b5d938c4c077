package server

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	gwruntime "github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/encoding/proto"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/status"
	protov2 "google.golang.org/protobuf/proto"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
)

func TestRequestBudget(t *testing.T) {
	t.Parallel()
	const capacity = 1000
	for _, tc := range []struct {
		name  string
		taken int64 // before
		body  int64
		want  int64 // charge
		ok    bool
	}{
		{"no body", 0, 0, 0, true},
		{"charged its amplification", 0, 10, 10 * RequestAmplification, true},
		{"fills the budget", capacity - 40, 10, 40, true},
		{"one byte past", capacity - 39, 10, 40, false},
		{"too large is charged the budget, served alone", 0, capacity, capacity, true},
		{"too large waits for nothing else", 1, capacity, capacity, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := newRequestBudget(capacity)
			if !b.take(tc.taken) {
				t.Fatal("setup")
			}
			n := b.charge(tc.body)
			if n != tc.want {
				t.Errorf("charge(%d) = %d, want %d", tc.body, n, tc.want)
			}
			if got := b.take(n); got != tc.ok {
				t.Fatalf("take(%d) with %d taken = %v, want %v", n, tc.taken, got, tc.ok)
			}
			want := tc.taken
			if tc.ok {
				want += n
				b.put(n)
			}
			if tc.ok && b.inUse() != tc.taken || !tc.ok && b.inUse() != want {
				t.Errorf("in use after put %d, want %d", b.inUse(), tc.taken)
			}
		})
	}
}

func TestRequestBudgetDefaults(t *testing.T) {
	t.Parallel()
	if b := newRequestBudget(-1); b != nil || !b.take(1<<40) || b.charge(1<<30) != 0 {
		t.Error("a negative capacity should take everything")
	}
	if b := newRequestBudget(newSettings(Config{}).maxInflightRequestBytes); b.capacity != DefaultMaxInflightRequestBytes {
		t.Errorf("default capacity %d", b.capacity)
	}
	if n := DefaultMaxInflightRequestBytes / (DefaultMaxRequestBytes * RequestAmplification); n < 3 {
		t.Errorf("the default budget holds %d maximum-size requests, want at least 3", n)
	}
}

// busyBudget is a budget with free bytes left.
func busyBudget(capacity, free int64) *requestBudget {
	b := newRequestBudget(capacity)
	b.take(capacity - free)
	return b
}

// checkBusy fails unless err is RESOURCE_EXHAUSTED SERVER_BUSY with a
// RetryInfo.
func checkBusy(t *testing.T, err error) {
	t.Helper()
	st := status.Convert(err)
	var reason string
	var retry bool
	for _, d := range st.Details() {
		switch d := d.(type) {
		case *errdetails.ErrorInfo:
			reason = d.Reason
		case *errdetails.RetryInfo:
			retry = d.GetRetryDelay().AsDuration() > 0
		}
	}
	if st.Code() != codes.ResourceExhausted || reason != reasonServerBusy || !retry {
		t.Fatalf("err = %v (reason %q, retry %v), want RESOURCE_EXHAUSTED %s with RetryInfo", err, reason, retry, reasonServerBusy)
	}
}

// wire encodes m as gRPC hands it to the codec.
func wire(t *testing.T, m protov2.Message) mem.BufferSlice {
	t.Helper()
	data, err := encoding.GetCodecV2(proto.Name).Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestReceiveBudgetUnary: a received message is charged before it is
// decoded and until its handler returns; one past the budget is not
// decoded, never reaches the handler, and is answered SERVER_BUSY.
func TestReceiveBudgetUnary(t *testing.T) {
	t.Parallel()
	msg := &api.RunRequest{AppName: "a", UserId: "u", SessionId: "s",
		NewMessage: &v1.Content{Role: "user", Parts: []*v1.Part{{Text: strings.Repeat("x", 1000)}}}}
	data := wire(t, msg)
	charge := int64(data.Len()) * RequestAmplification
	for _, tc := range []struct {
		name   string
		free   int64
		served bool
	}{
		{"fits", charge, true},
		{"does not fit", charge - 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := busyBudget(1<<20, tc.free)
			before := b.inUse()
			f := &received{budget: b}
			codec := requestCodec{base: encoding.GetCodecV2(proto.Name), received: f}
			got := &api.RunRequest{}
			if err := codec.Unmarshal(data, got); err != nil {
				t.Fatal(err)
			}
			var inHandler int64
			_, err := f.unary(t.Context(), got, &grpc.UnaryServerInfo{}, func(context.Context, any) (any, error) {
				inHandler = b.inUse()
				return nil, nil
			})
			if !tc.served {
				checkBusy(t, err)
				if got.GetNewMessage() != nil {
					t.Error("a refused message was decoded")
				}
			} else if err != nil || inHandler != before+charge {
				t.Fatalf("served: err %v, in use in the handler %d, want %d", err, inHandler, before+charge)
			}
			if b.inUse() != before {
				t.Errorf("in use after the call %d, want %d", b.inUse(), before)
			}
		})
	}
}

// fakeStream is a server stream that receives msgs in turn.
type fakeStream struct {
	grpc.ServerStream
	codec requestCodec
	msgs  []mem.BufferSlice
}

func (s *fakeStream) Context() context.Context { return context.Background() }

func (s *fakeStream) RecvMsg(m any) error {
	if len(s.msgs) == 0 {
		return io.EOF
	}
	data := s.msgs[0]
	s.msgs = s.msgs[1:]
	return s.codec.Unmarshal(data, m)
}

// TestReceiveBudgetStream: a stream holds the charge of its last message
// until the next one has been received (so both are charged meanwhile) or
// the stream ends, and a message past the budget ends it SERVER_BUSY.
func TestReceiveBudgetStream(t *testing.T) {
	t.Parallel()
	small := wire(t, &api.RunRequest{AppName: "a"})
	big := wire(t, &api.RunRequest{AppName: strings.Repeat("a", 400)})
	b := newRequestBudget(int64(big.Len()+small.Len()) * RequestAmplification)
	f := &received{budget: b}
	ss := &fakeStream{codec: requestCodec{base: encoding.GetCodecV2(proto.Name), received: f}, msgs: []mem.BufferSlice{small, big, small}}
	var held []int64
	err := f.stream(nil, ss, &grpc.StreamServerInfo{}, func(_ any, s grpc.ServerStream) error {
		for {
			if err := s.RecvMsg(&api.RunRequest{}); err != nil {
				if err == io.EOF {
					return nil
				}
				return err
			}
			held = append(held, b.inUse())
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []int64{int64(small.Len()) * RequestAmplification, int64(big.Len()) * RequestAmplification, int64(small.Len()) * RequestAmplification}
	if len(held) != 3 || held[0] != want[0] || held[1] != want[1] || held[2] != want[2] {
		t.Errorf("held %v, want %v", held, want)
	}
	if b.inUse() != 0 {
		t.Errorf("in use after the stream %d", b.inUse())
	}

	b.take(b.capacity - 1)
	ss.msgs = []mem.BufferSlice{small}
	err = f.stream(nil, ss, &grpc.StreamServerInfo{}, func(_ any, s grpc.ServerStream) error {
		return s.RecvMsg(&api.RunRequest{})
	})
	checkBusy(t, err)
}

// TestAdmitREST: the guard charges a body of known length at once and a
// chunked one as it is read, refuses one past the budget with 503 and
// Retry-After (reading and dropping its body), and gives every charge back.
func TestAdmitREST(t *testing.T) {
	t.Parallel()
	const body = 1000
	for _, tc := range []struct {
		name    string
		free    int64
		chunked bool
		want    int
	}{
		{"length fits", body * RequestAmplification, false, http.StatusOK},
		{"length past the budget", body*RequestAmplification - 1, false, http.StatusServiceUnavailable},
		{"chunked fits", body * RequestAmplification, true, http.StatusOK},
		{"chunked past the budget", body*RequestAmplification - 1, true, http.StatusServiceUnavailable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := busyBudget(1<<20, tc.free)
			before := b.inUse()
			var inHandler int64
			var read int
			g := &guard{budget: b, cfg: httpConfig{maxRequestBytes: 1 << 20, bodyReadTimeout: time.Minute},
				origins: &originPolicy{},
				fail: func(w http.ResponseWriter, _ *http.Request, err error) {
					var he *gwruntime.HTTPStatusError
					if !errors.As(err, &he) {
						t.Fatalf("refused with %v", err)
					}
					if after, ok := retryAfter(status.Convert(he.Err)); ok {
						w.Header().Set("Retry-After", after)
					}
					w.WriteHeader(he.HTTPStatus)
				},
				next: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					inHandler = b.inUse()
					data, _ := io.ReadAll(r.Body)
					read = len(data)
				})}
			var rd io.Reader = strings.NewReader(strings.Repeat("x", body))
			if tc.chunked {
				rd = io.MultiReader(rd)
			}
			req := httptest.NewRequest(http.MethodPost, "/run", rd)
			req.Header.Set("Content-Type", "application/json")
			if tc.chunked {
				req.ContentLength = -1
			}
			w := httptest.NewRecorder()
			g.ServeHTTP(w, req)
			if w.Code != tc.want {
				t.Fatalf("status %d, want %d", w.Code, tc.want)
			}
			if tc.want == http.StatusOK && (inHandler != before+body*RequestAmplification || read != body) {
				t.Errorf("in the handler: in use %d, want %d; body %d bytes", inHandler, before+body*RequestAmplification, read)
			}
			if tc.want != http.StatusOK && w.Header().Get("Retry-After") == "" {
				t.Error("503 without Retry-After")
			}
			if b.inUse() != before {
				t.Errorf("in use after %d, want %d", b.inUse(), before)
			}
		})
	}
}
