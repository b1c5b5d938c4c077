package server_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/procstat"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/server"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// maxRunText is the text of a /run body just under the default
// --max-request-bytes.
const maxRunText = server.DefaultMaxRequestBytes - 64<<10

// letters yields n bytes of 'a', so that a large body is sent without
// being held.
type letters struct{ n int64 }

func (l *letters) Read(p []byte) (int, error) {
	if l.n <= 0 {
		return 0, io.EOF
	}
	k := min(int64(len(p)), l.n)
	for i := range p[:k] {
		p[i] = 'a'
	}
	l.n -= k
	return int(k), nil
}

// bigRunRequest is a /run request of session sid whose message is n
// letters, generated as it is sent; chunked sends it without a length.
func bigRunRequest(ctx context.Context, t testing.TB, url, sid string, n int64, chunked bool) *http.Request {
	t.Helper()
	prefix := fmt.Sprintf(`{"appName":%q,"userId":%q,"sessionId":%q,"newMessage":{"role":"user","parts":[{"text":"`, appName, userID, sid)
	const suffix = `"}]}}`
	body := io.MultiReader(strings.NewReader(prefix), &letters{n}, strings.NewReader(suffix))
	if chunked {
		body = io.MultiReader(body) // hides the length from net/http
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url+"/run", body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if !chunked {
		req.ContentLength = int64(len(prefix)+len(suffix)) + n
	}
	return req
}

// heapPeak samples the bytes of heap objects (live or not yet swept) until
// stopped, and returns the highest.
type heapPeak struct {
	stop chan struct{}
	done chan uint64
}

func watchHeap() *heapPeak {
	h := &heapPeak{stop: make(chan struct{}), done: make(chan uint64, 1)}
	go func() {
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		var peak uint64
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(sample)
			peak = max(peak, sample[0].Value.Uint64())
			select {
			case <-h.stop:
				h.done <- peak
				return
			case <-tick.C:
			}
		}
	}()
	return h
}

func (h *heapPeak) peak() uint64 {
	close(h.stop)
	return <-h.done
}

// liveHeap collects garbage and returns the bytes of live heap objects.
func liveHeap() uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	return sample[0].Value.Uint64()
}

// tightGC makes the collector run at 25% heap growth instead of 100%
// until t ends, so that the heap's peak follows what is live.
func tightGC(t *testing.T) {
	old := debug.SetGCPercent(25)
	t.Cleanup(func() { debug.SetGCPercent(old) })
}

// memoryStack is a REST server on a model that answers every call, which
// records nothing, with sessions s0..s{n-1} of the test user.
func memoryStack(t *testing.T, n int, configure func(*server.Config)) (*restStack, sessions.Service) {
	t.Helper()
	s := &restStack{fixture: newFixture(t, withoutGRPC(), withConfig(configure))}
	s.http = s.serveHTTP(t)
	s.model.SetRecording(false)
	for i := range n {
		s.model.Enqueue(et.Text("ok"))
		s.session(t, fmt.Sprintf("s%d", i))
	}
	return s, s.store
}

// TestRequestAmplification measures the memory one maximum-size /run
// takes at its peak, without a budget, per byte of body: the figure
// [server.RequestAmplification] charges must cover it. The heap is sampled
// every millisecond, so the figure is a little low, or high by garbage not
// yet collected.
func TestRequestAmplification(t *testing.T) {
	tightGC(t)
	s, _ := memoryStack(t, 1, func(c *server.Config) { c.MaxInflightRequestBytes = -1 })
	base := liveHeap()
	h := watchHeap()
	resp, err := s.http.Client().Do(bigRunRequest(t.Context(), t, s.http.URL, "s0", maxRunText, false))
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	peak := h.peak()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	grew := float64(peak-min(base, peak)) / maxRunText
	t.Logf("a /run of %d bytes: heap peak %.0f MiB over %.0f MiB before, %.2f bytes per byte of body",
		int64(maxRunText), float64(peak)/(1<<20), float64(base)/(1<<20), grew)
	// The collector lets garbage reach a quarter of the heap (tightGC).
	if limit := server.RequestAmplification * 1.25; grew > limit {
		t.Errorf("a /run takes %.2f bytes per byte of body, over the %d the budget charges (with a quarter more for garbage)", grew, server.RequestAmplification)
	}
}

// TestRequestBudgetBoundsConcurrentRuns sends 48 maximum-size /run bodies
// at once: those past the budget are answered 503 with Retry-After without
// being read and store nothing, the heap's peak stays within the budget
// (and what the admitted runs stored), and every run is either served or
// refused so.
func TestRequestBudgetBoundsConcurrentRuns(t *testing.T) {
	tightGC(t)
	const runs = 48
	s, store := memoryStack(t, runs, func(*server.Config) {})
	base := liveHeap()
	_, hwmBefore, _ := procstat.Memory(os.Getpid())
	h := watchHeap()
	var served, refused atomic.Int64
	var wg sync.WaitGroup
	for i := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sid := fmt.Sprintf("s%d", i)
			resp, err := s.http.Client().Do(bigRunRequest(t.Context(), t, s.http.URL, sid, maxRunText, false))
			if err != nil {
				t.Errorf("%s: %v", sid, err)
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			switch resp.StatusCode {
			case http.StatusOK:
				served.Add(1)
				// The session keeps the message; dropping it leaves the
				// heap with what is in flight.
				_ = store.Delete(context.Background(), appName, userID, sid)
			case http.StatusServiceUnavailable:
				refused.Add(1)
				if resp.Header.Get("Retry-After") == "" {
					t.Errorf("%s: 503 without Retry-After", sid)
				}
				sess, err := store.Get(context.Background(), sessions.GetRequest{AppName: appName, UserID: userID, SessionID: sid})
				if err != nil || len(sess.GetEvents()) != 0 {
					t.Errorf("%s: refused, but the session holds %d events (%v)", sid, len(sess.GetEvents()), err)
				}
			default:
				t.Errorf("%s: status %d", sid, resp.StatusCode)
			}
		}()
	}
	wg.Wait()
	peak := h.peak()
	grew := peak - min(base, peak)
	// The process's resident high-water mark, for the record: tests in
	// parallel share it, so it is logged, not checked.
	_, hwmAfter, _ := procstat.Memory(os.Getpid())
	t.Logf("%d runs of %d bytes: %d served, %d refused; heap peak %.0f MiB over %.0f MiB before (budget %d MiB); resident high-water mark %.0f MiB, %.0f MiB before",
		runs, int64(maxRunText), served.Load(), refused.Load(), float64(grew)/(1<<20), float64(base)/(1<<20),
		server.DefaultMaxInflightRequestBytes>>20, float64(hwmAfter)/(1<<20), float64(hwmBefore)/(1<<20))
	if served.Load() == 0 || refused.Load() == 0 {
		t.Errorf("served %d, refused %d: want both", served.Load(), refused.Load())
	}
	// The budget bounds what is live; the collector lets garbage reach a
	// quarter more, and the transport buffers a little besides.
	if limit := uint64(server.DefaultMaxInflightRequestBytes) * 3 / 2; grew > limit {
		t.Errorf("heap grew %d MiB, over %d MiB", grew>>20, limit>>20)
	}
}
