package a2a

import (
	"bytes"
	"context"
	"encoding/gob"
	"fmt"
	"sync"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2asrv"
)

// DefaultMaxTasks is how many tasks a [Service] keeps per app by default
// for tasks/get and for messages that continue a task.
const DefaultMaxTasks = 10000

// taskStore keeps at most max tasks in memory, dropping the oldest first,
// each visible only to the user that created it. Tasks are stored encoded,
// so that callers never share one. Safe for concurrent use.
type taskStore struct {
	user func(context.Context) string
	max  int

	mu    sync.Mutex
	tasks map[a2a.TaskID]storedTask
	order []a2a.TaskID
}

type storedTask struct {
	owner string
	data  []byte
}

var _ a2asrv.TaskStore = (*taskStore)(nil)

func newTaskStore(max int, user func(context.Context) string) *taskStore {
	return &taskStore{user: user, max: max, tasks: map[a2a.TaskID]storedTask{}}
}

// Save implements [a2asrv.TaskStore].
func (s *taskStore) Save(ctx context.Context, task *a2a.Task) error {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(task); err != nil {
		return fmt.Errorf("a2a: encode task: %w", err)
	}
	owner := s.user(ctx)
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.tasks[task.ID]; ok {
		if old.owner != owner {
			return a2a.ErrTaskNotFound
		}
	} else {
		s.order = append(s.order, task.ID)
		for len(s.order) > s.max {
			delete(s.tasks, s.order[0])
			s.order = s.order[1:]
		}
	}
	s.tasks[task.ID] = storedTask{owner: owner, data: buf.Bytes()}
	return nil
}

// owns reports whether the task id is kept and the caller's.
func (s *taskStore) owns(ctx context.Context, id a2a.TaskID) bool {
	user := s.user(ctx)
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tasks[id]
	return ok && t.owner == user
}

// Get implements [a2asrv.TaskStore]; another user's task is not found.
func (s *taskStore) Get(ctx context.Context, id a2a.TaskID) (*a2a.Task, error) {
	s.mu.Lock()
	t, ok := s.tasks[id]
	s.mu.Unlock()
	if !ok || t.owner != s.user(ctx) {
		return nil, a2a.ErrTaskNotFound
	}
	task := &a2a.Task{}
	if err := gob.NewDecoder(bytes.NewReader(t.data)).Decode(task); err != nil {
		return nil, fmt.Errorf("a2a: decode task: %w", err)
	}
	return task, nil
}
