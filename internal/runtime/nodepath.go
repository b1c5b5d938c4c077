package runtime

import (
	"strconv"
	"sync"
)

// nodePaths numbers the runs of an invocation's agents as ADK 2.x's node
// scheduler does (App.NodePaths): an agent runs as "<name>@<n>" under the
// run of its parent in the tree, n counting its runs there, and an agent
// whose parent has not run in the invocation is placed under its
// ancestors' first runs.
type nodePaths struct {
	mu      sync.Mutex
	current map[string]string // agent name → path of its latest run
	runs    map[string]int    // parent path + "/" + name → runs so far
}

// start returns the path of a new run of agent.
func (n *nodePaths) start(tree *Tree, agent string) string {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.current == nil {
		n.current, n.runs = map[string]string{}, map[string]int{}
	}
	parent := ""
	if p := tree.Parent(agent); p != nil {
		parent = n.pathOf(tree, p.Name())
	}
	key := parent + "/" + agent
	n.runs[key]++
	path := agent + "@" + strconv.Itoa(n.runs[key])
	if parent != "" {
		path = parent + "/" + path
	}
	n.current[agent] = path
	return path
}

// pathOf is the path of an agent's latest run, or of a first run under
// its ancestors' when it has not run.
func (n *nodePaths) pathOf(tree *Tree, agent string) string {
	if p, ok := n.current[agent]; ok {
		return p
	}
	parent := ""
	if p := tree.Parent(agent); p != nil {
		parent = n.pathOf(tree, p.Name())
	}
	n.runs[parent+"/"+agent] = 1
	path := agent + "@1"
	if parent != "" {
		path = parent + "/" + path
	}
	n.current[agent] = path
	return path
}

// next counts a run of the node keyed parent path + "/" + name and returns
// its number.
func (n *nodePaths) next(key string) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.runs == nil {
		n.current, n.runs = map[string]string{}, map[string]int{}
	}
	n.runs[key]++
	return n.runs[key]
}

// seed sets the runs of the node keyed parent path + "/" + name to at
// least n.
func (n *nodePaths) seed(key string, runs int) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.runs == nil {
		n.current, n.runs = map[string]string{}, map[string]int{}
	}
	if n.runs[key] < runs {
		n.runs[key] = runs
	}
}
