package server

import (
	"hash/maphash"
	"math"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// userShards splits the limiter's buckets, so that requests of different
// users seldom wait on one lock.
const userShards = 32

// userLimiter is a token bucket per user (app and user id). A bucket that
// has refilled to its burst is the same as none, so buckets idle that long
// are swept away: memory grows with the users active within burst/rate, not
// with all users ever seen.
type userLimiter struct {
	limit rate.Limit
	burst int
	// idle is how long an emptied bucket takes to refill, and how often a
	// shard is swept.
	idle   time.Duration
	seed   maphash.Seed
	shards [userShards]userShard
}

type userShard struct {
	mu        sync.Mutex
	buckets   map[userKey]*rate.Limiter
	lastSweep time.Time
}

// newUserLimiter returns a limiter of perSecond requests per user with
// bursts of burst, or nil when perSecond is not positive. The burst's
// default is applied by [newSettings].
func newUserLimiter(perSecond float64, burst int) *userLimiter {
	if !(perSecond > 0) {
		return nil
	}
	idle := time.Duration(float64(burst) / perSecond * float64(time.Second))
	return &userLimiter{limit: rate.Limit(perSecond), burst: burst, idle: max(idle, time.Second), seed: maphash.MakeSeed()}
}

// wait takes a token of user k at now. When there is none it returns how
// long until there is one, and takes nothing.
func (l *userLimiter) wait(k userKey, now time.Time) time.Duration {
	var h maphash.Hash
	h.SetSeed(l.seed)
	h.WriteString(k.app)
	h.WriteByte(0)
	h.WriteString(k.user)
	sh := &l.shards[h.Sum64()%userShards]

	sh.mu.Lock()
	defer sh.mu.Unlock()
	if now.Sub(sh.lastSweep) >= l.idle {
		sh.sweep(now, float64(l.burst))
	}
	lim := sh.buckets[k]
	if lim == nil {
		if sh.buckets == nil {
			sh.buckets = make(map[userKey]*rate.Limiter)
		}
		lim = rate.NewLimiter(l.limit, l.burst)
		sh.buckets[k] = lim
	}
	if lim.AllowN(now, 1) {
		return 0
	}
	r := lim.ReserveN(now, 1)
	delay := r.DelayFrom(now)
	r.CancelAt(now)
	return max(delay, time.Millisecond)
}

// sweep forgets the buckets that are full again.
func (sh *userShard) sweep(now time.Time, burst float64) {
	sh.lastSweep = now
	for k, lim := range sh.buckets {
		if lim.TokensAt(now) >= burst {
			delete(sh.buckets, k)
		}
	}
}

// size returns the number of buckets held.
func (l *userLimiter) size() int {
	n := 0
	for i := range l.shards {
		sh := &l.shards[i]
		sh.mu.Lock()
		n += len(sh.buckets)
		sh.mu.Unlock()
	}
	return n
}

// limitUser takes a token of the user's bucket, or fails with
// RESOURCE_EXHAUSTED (USER_RATE_LIMITED) and a RetryInfo saying when to
// retry. Call it once a request's ids are valid and before anything is
// stored.
func (s *Server) limitUser(app, user string) error {
	if s.userRate == nil {
		return nil
	}
	delay := s.userRate.wait(userKey{app, user}, time.Now())
	if delay <= 0 {
		return nil
	}
	return errUserRateLimited(delay)
}

// errUserRateLimited is the status of a request over its user's rate.
func errUserRateLimited(delay time.Duration) error {
	st := status.New(codes.ResourceExhausted, "too many requests for this user; retry after "+delay.Round(time.Millisecond).String())
	if withDetails, err := st.WithDetails(
		&errdetails.ErrorInfo{Reason: v1.ErrorReason_USER_RATE_LIMITED.String(), Domain: errorDomain},
		&errdetails.RetryInfo{RetryDelay: durationpb.New(delay)},
	); err == nil {
		st = withDetails
	}
	return st.Err()
}

// retryAfter returns the Retry-After header value (whole seconds, at least
// 1) of a status with a RetryInfo detail.
func retryAfter(st *status.Status) (string, bool) {
	for _, d := range st.Details() {
		if info, ok := d.(*errdetails.RetryInfo); ok && info.GetRetryDelay() != nil {
			secs := int64(math.Ceil(info.GetRetryDelay().AsDuration().Seconds()))
			return strconv.FormatInt(max(secs, 1), 10), true
		}
	}
	return "", false
}
