package contents

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// Features of a generated history, as bits of the fuzz input's profile.
const (
	genBranches = 1 << iota
	genOtherAgents
	genAsync // responses away from their calls, reused and unknown ids
	genRewinds
	genCompaction
	genTranscriptions
	genOddEvents // empty, thought-only and framework events
	genModelIDs  // call ids from the model rather than "adk-"
)

const genAgent = "me"

// genBranchNames mixes ancestors, siblings and prefix look-alikes of one
// another.
var genBranchNames = []string{"", "p", "p.me", "p.me.sub", "p.me2", "p.m", "q"}

// historyGen writes random histories shaped like real sessions: user
// turns, tool calls mostly answered right away, answers; the profile adds
// the rarer shapes.
type historyGen struct {
	r       *rand.Rand
	profile uint8
	events  []*v1.Event
	ts      float64
	inv     int
	nextID  int
	pending []string // call ids not answered yet
	called  []string // every call id so far
}

func (g *historyGen) has(feature uint8) bool { return g.profile&feature != 0 }

func (g *historyGen) chance(percent int) bool { return g.r.IntN(100) < percent }

func (g *historyGen) pick(names []string) string { return names[g.r.IntN(len(names))] }

// emit appends an event of the current invocation at a later (or, now and
// then, the same) time.
func (g *historyGen) emit(e *v1.Event) {
	if !g.chance(10) {
		g.ts++
	}
	e.Timestamp = g.ts
	e.InvocationId = "e-" + strconv.Itoa(g.inv)
	if g.has(genBranches) {
		e.Branch = g.pick(genBranchNames)
	}
	g.events = append(g.events, e)
}

func (g *historyGen) author() string {
	if g.has(genOtherAgents) && g.chance(30) {
		return g.pick([]string{"other", "me2", "m"})
	}
	return genAgent
}

func (g *historyGen) newID() string {
	g.nextID++
	prefix := "adk-"
	if g.has(genModelIDs) && g.chance(70) {
		prefix = "call_"
	}
	return prefix + strconv.Itoa(g.nextID)
}

func genText(author, role, text string) *v1.Event {
	return &v1.Event{Author: author, Content: &v1.Content{Role: role, Parts: []*v1.Part{{Text: text}}}}
}

func genCall(id, name string) *v1.Part {
	args, _ := structpb.NewStruct(map[string]any{"q": id})
	return &v1.Part{FunctionCall: &v1.FunctionCall{Id: id, Name: name, Args: args}}
}

func genResponse(id, name string) *v1.Part {
	resp, _ := structpb.NewStruct(map[string]any{"result": id})
	return &v1.Part{FunctionResponse: &v1.FunctionResponse{Id: id, Name: name, Response: resp}}
}

// toolTurn writes a call event and, usually, its response event.
func (g *historyGen) toolTurn() {
	author := g.author()
	var ids []string
	var parts []*v1.Part
	if g.chance(20) {
		parts = append(parts, &v1.Part{Text: "calling"})
	}
	for range 1 + g.r.IntN(3) {
		id := g.newID()
		if g.has(genAsync) && len(g.called) > 0 && g.chance(10) {
			id = g.pick(g.called) // a model that reuses ids
		}
		ids = append(ids, id)
		parts = append(parts, genCall(id, "tool"))
	}
	g.called = append(g.called, ids...)
	g.emit(&v1.Event{Author: author, Content: &v1.Content{Role: "model", Parts: parts}})

	answered := ids
	if g.has(genAsync) && g.chance(40) {
		// Some calls are answered later, as long-running tools are.
		cut := g.r.IntN(len(ids) + 1)
		answered, g.pending = ids[:cut], append(g.pending, ids[cut:]...)
	}
	if len(answered) == 0 {
		return
	}
	var resp []*v1.Part
	for _, id := range answered {
		resp = append(resp, genResponse(id, "tool"))
	}
	if g.has(genAsync) && g.chance(10) {
		resp = append(resp, genResponse(g.newID(), "tool")) // answers no call
	}
	if g.chance(10) {
		g.r.Shuffle(len(resp), func(i, j int) { resp[i], resp[j] = resp[j], resp[i] })
	}
	if g.chance(5) {
		resp = append(resp, &v1.Part{Text: "and a note"})
	}
	g.emit(&v1.Event{Author: author, Content: &v1.Content{Role: "user", Parts: resp}})
}

// lateResponse answers a pending call, or an already answered one.
func (g *historyGen) lateResponse() {
	var id string
	switch {
	case len(g.pending) > 0 && g.chance(80):
		i := g.r.IntN(len(g.pending))
		id = g.pending[i]
		g.pending = append(g.pending[:i], g.pending[i+1:]...)
	case len(g.called) > 0 && g.chance(80):
		id = g.pick(g.called)
	default:
		id = g.newID()
	}
	author := g.pick([]string{"user", genAgent})
	g.emit(&v1.Event{Author: author, Content: &v1.Content{Role: "user", Parts: []*v1.Part{genResponse(id, "tool")}}})
}

func (g *historyGen) oddEvent() {
	var e *v1.Event
	switch g.r.IntN(8) {
	case 0:
		e = &v1.Event{Author: genAgent}
	case 1:
		e = &v1.Event{Author: "user", Content: &v1.Content{Parts: []*v1.Part{{Text: "no role"}}}}
	case 2:
		e = &v1.Event{Author: genAgent, Content: &v1.Content{Role: "model"}}
	case 3:
		e = &v1.Event{Author: g.author(), Content: &v1.Content{Role: "model", Parts: []*v1.Part{{Text: "hm", Thought: true}, {}}}}
	case 4:
		id := g.newID()
		e = &v1.Event{Author: genAgent, Content: &v1.Content{Role: "model", Parts: []*v1.Part{genCall(id, "adk_request_confirmation")}}}
	case 5:
		e = &v1.Event{Author: "user", Content: &v1.Content{Role: "user", Parts: []*v1.Part{genResponse(g.newID(), "adk_request_input")}}}
	case 6:
		// A content that both answers the call before it and calls, then
		// an answer to that call.
		first, second := g.newID(), g.newID()
		g.emit(&v1.Event{Author: genAgent, Content: &v1.Content{Role: "model", Parts: []*v1.Part{genCall(first, "tool")}}})
		g.emit(&v1.Event{Author: genAgent, Content: &v1.Content{Role: "model", Parts: []*v1.Part{
			genResponse(first, "tool"), genCall(second, "tool"),
		}}})
		g.called = append(g.called, first, second)
		e = &v1.Event{Author: genAgent, Content: &v1.Content{Role: "user", Parts: []*v1.Part{genResponse(second, "tool")}}}
	default:
		e = &v1.Event{Author: g.author(), Content: &v1.Content{Role: "model", Parts: []*v1.Part{
			{InlineData: &v1.Blob{MimeType: "image/png", Data: []byte{1}}}, {Text: "see"},
		}}}
	}
	g.emit(e)
}

func (g *historyGen) special() {
	switch {
	case g.has(genRewinds) && g.chance(30):
		target := "e-" + strconv.Itoa(g.r.IntN(g.inv+2))
		g.emit(&v1.Event{Author: "user", Actions: &v1.EventActions{RewindBeforeInvocationId: target}})
	case g.has(genCompaction) && g.chance(30):
		start := float64(g.r.IntN(int(g.ts) + 1))
		end := start + float64(g.r.IntN(4))
		var summary *v1.Content
		if g.chance(85) {
			summary = &v1.Content{Parts: []*v1.Part{{Text: "summary " + strconv.Itoa(len(g.events))}}}
			if g.chance(50) {
				summary.Role = "model"
			}
		}
		g.emit(&v1.Event{Author: "user", Actions: &v1.EventActions{Compaction: &v1.EventCompaction{
			StartTimestamp: start, EndTimestamp: end, CompactedContent: summary,
		}}})
	case g.has(genTranscriptions) && g.chance(30):
		e := &v1.Event{Author: g.pick([]string{"user", genAgent})}
		if g.chance(50) {
			e.InputTranscription = &v1.Transcription{Text: g.pick([]string{"", "hello ", "there"})}
		} else {
			e.OutputTranscription = &v1.Transcription{Text: g.pick([]string{"", "hi ", "you"})}
		}
		if g.chance(20) {
			e.Content = &v1.Content{} // empty, but kept for the transcription
		}
		g.emit(e)
	case g.has(genOddEvents):
		g.oddEvent()
	case g.has(genAsync):
		g.lateResponse()
	}
}

// generateHistory returns about n events.
func generateHistory(seed uint64, profile uint8, n int) []*v1.Event {
	g := &historyGen{r: rand.New(rand.NewPCG(seed, uint64(profile))), profile: profile}
	for len(g.events) < n {
		g.inv++
		g.emit(genText("user", "user", "question "+strconv.Itoa(g.inv)))
		for g.chance(60) {
			switch k := g.r.IntN(10); {
			case k < 5:
				g.toolTurn()
			case k < 7:
				g.special()
			default:
				g.emit(genText(g.author(), "model", "answer "+strconv.Itoa(len(g.events))))
			}
		}
		if g.chance(70) {
			g.emit(genText(g.author(), "model", "done "+strconv.Itoa(g.inv)))
		}
	}
	return g.events
}

// buildGeneral builds through the general path only, with every
// rearrangement run.
func buildGeneral(events []*v1.Event, agentName, branch string, opts Options) ([]*v1.Content, error) {
	if opts.CurrentTurnOnly {
		start := currentTurnStart(events, agentName, branch)
		if start < 0 {
			return nil, nil
		}
		events = events[start:]
	}
	l := collectGeneral(events, agentName, branch, false)
	l.paired.release()
	l.paired.broken = true
	l.keepClientIDs = opts.KeepClientIDs
	return l.finish()
}

func diffResults(want []*v1.Content, wantErr error, got []*v1.Content, gotErr error) string {
	if wantErr != nil || gotErr != nil {
		if wantErr == nil || gotErr == nil || wantErr.Error() != gotErr.Error() {
			return "error: want " + errString(wantErr) + ", got " + errString(gotErr)
		}
		return ""
	}
	if len(want) == len(got) {
		same := true
		for i := range want {
			same = same && (want[i] == got[i] || proto.Equal(want[i], got[i]))
		}
		if same {
			return ""
		}
	}
	return cmp.Diff(want, got, protocmp.Transform(), cmpopts.EquateEmpty())
}

func errString(err error) string {
	if err == nil {
		return "none"
	}
	return err.Error()
}

// checkBuilds compares Build, the general path and Build with a Cache fed
// every prefix against the reference, and checks that no event changed.
func checkBuilds(t *testing.T, events []*v1.Event, agentName, branch string, opts Options) {
	t.Helper()
	for i, e := range events {
		if e.Id == "" {
			e.Id = fmt.Sprint("event-", i)
		}
	}
	stored := make([]*v1.Event, len(events))
	for i, e := range events {
		stored[i] = proto.CloneOf(e)
	}
	want, wantErr := referenceBuild(events, agentName, branch, opts)
	got, err := Build(events, agentName, branch, opts)
	if d := diffResults(want, wantErr, got, err); d != "" {
		t.Fatalf("Build(%q, %q, %+v) mismatch (-reference +got):\n%s", agentName, branch, opts, d)
	}
	got, err = buildGeneral(events, agentName, branch, opts)
	if d := diffResults(want, wantErr, got, err); d != "" {
		t.Fatalf("general path (%q, %q, %+v) mismatch (-reference +got):\n%s", agentName, branch, opts, d)
	}

	// As an invocation's steps do, each build adds a few events.
	var cache Cache
	cached := opts
	cached.Cache = &cache
	for n := 0; ; n = min(n+1+n%3, len(events)) {
		want, wantErr := referenceBuild(events[:n], agentName, branch, opts)
		got, err := Build(events[:n], agentName, branch, cached)
		if d := diffResults(want, wantErr, got, err); d != "" {
			t.Fatalf("Build with a Cache over %d events (%q, %q, %+v) mismatch (-reference +got):\n%s",
				n, agentName, branch, opts, d)
		}
		if n == len(events) {
			break
		}
	}
	// A history cut back to a prefix of the one read, then grown another
	// way (as invocations of one session each see the stored events plus
	// their own), reads on from the prefix; results given out before stay
	// as they were.
	first, firstErr := Build(events, agentName, branch, cached)
	firstCopy := slices.Clone(first)
	for _, cut := range []int{len(events) - 1, len(events) / 2, 1} {
		if cut < 0 {
			continue
		}
		other := append(slices.Clone(events[:cut]), genText("user", "user", "again"))
		other = append(other, events[cut:]...)
		for n := cut; ; n = min(n+2, len(other)) {
			want, wantErr := referenceBuild(other[:n], agentName, branch, opts)
			got, err := Build(other[:n], agentName, branch, cached)
			if d := diffResults(want, wantErr, got, err); d != "" {
				t.Fatalf("Build with a Cache over %d events cut back at %d (%q, %q, %+v) mismatch (-reference +got):\n%s",
					n, cut, agentName, branch, opts, d)
			}
			if n == len(other) {
				break
			}
		}
	}
	if d := diffResults(firstCopy, firstErr, first, firstErr); d != "" || !slices.Equal(first, firstCopy) {
		t.Fatalf("a result changed after later builds with its Cache:\n%s", d)
	}
	// The same events decoded anew are recognised by id.
	if !opts.CurrentTurnOnly {
		decoded := make([]*v1.Event, len(events))
		for i, e := range events {
			decoded[i] = proto.CloneOf(e)
		}
		got, err := Build(decoded, agentName, branch, cached)
		if d := diffResults(want, wantErr, got, err); d != "" {
			t.Fatalf("Build with a Cache over the history decoded anew mismatch (-reference +got):\n%s", d)
		}
	}

	// A history that does not extend the cached one starts over.
	changed := genText("user", "user", "changed")
	for _, at := range []int{0, len(events) / 2, len(events) - 1} {
		if at < 0 {
			continue
		}
		other := slices.Clone(events)
		other[at] = changed
		want, wantErr := referenceBuild(other, agentName, branch, opts)
		got, err := Build(other, agentName, branch, cached)
		if d := diffResults(want, wantErr, got, err); d != "" {
			t.Fatalf("Build with a Cache over another history (event %d changed) mismatch (-reference +got):\n%s", at, d)
		}
	}

	for i, e := range events {
		if !proto.Equal(e, stored[i]) {
			t.Fatalf("event %d changed by Build: %v, stored %v", i, e, stored[i])
		}
	}
}

// FuzzBuildMatchesReference checks the fast paths against a plain
// transcription of ADK's algorithm over generated histories with branches,
// other agents, async and duplicate responses, rewinds, compaction and
// transcriptions. Its seed corpus runs with every go test.
func FuzzBuildMatchesReference(f *testing.F) {
	for seed := range uint64(512) {
		// Every profile, and most often the common shape (no feature but
		// other agents or model ids), where the fast path applies.
		f.Add(seed, uint8(seed%256))
		var common uint8
		if seed&1 != 0 {
			common |= genOtherAgents
		}
		if seed&2 != 0 {
			common |= genModelIDs
		}
		f.Add(seed, common)
	}
	f.Fuzz(func(t *testing.T, seed uint64, profile uint8) {
		r := rand.New(rand.NewPCG(seed, 1))
		events := generateHistory(seed, profile, 1+r.IntN(40))
		agentName := genAgent
		if r.IntN(8) == 0 {
			agentName = ""
		}
		branch := ""
		if profile&genBranches != 0 {
			branch = genBranchNames[r.IntN(len(genBranchNames))]
		}
		opts := Options{KeepClientIDs: r.IntN(2) == 0, CurrentTurnOnly: r.IntN(5) == 0}
		checkBuilds(t, events, agentName, branch, opts)
	})
}
