package blobstore

import (
	"context"
	"sync"
)

// keyLocks serialises the writers of one artifact within a Store, so that
// in-process saves never race for a version number and a delete never
// interleaves with a save.
type keyLocks struct {
	mu    sync.Mutex
	locks map[string]*keyLock
}

type keyLock struct {
	held chan struct{} // holds a token while locked
	refs int           // holders and waiters
}

// lock takes the lock of key, or fails when ctx ends first; the returned
// function releases it.
func (l *keyLocks) lock(ctx context.Context, key string) (func(), error) {
	l.mu.Lock()
	if l.locks == nil {
		l.locks = make(map[string]*keyLock)
	}
	k := l.locks[key]
	if k == nil {
		k = &keyLock{held: make(chan struct{}, 1)}
		l.locks[key] = k
	}
	k.refs++
	l.mu.Unlock()

	select {
	case k.held <- struct{}{}:
		return func() {
			<-k.held
			l.release(key, k)
		}, nil
	case <-ctx.Done():
		l.release(key, k)
		return nil, ctx.Err()
	}
}

func (l *keyLocks) release(key string, k *keyLock) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if k.refs--; k.refs == 0 {
		delete(l.locks, key)
	}
}
