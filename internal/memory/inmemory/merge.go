package inmemory

// merge returns, in position order and without repeats, at most limit of
// the entries of lists, each sorted by position: the union the words of a
// query select. It reads only as far into each list as the answer needs.
func merge(lists [][]*entry, limit int) []*entry {
	switch len(lists) {
	case 0:
		return nil
	case 1:
		return append([]*entry(nil), lists[0][:min(limit, len(lists[0]))]...)
	}
	total := 0
	for _, l := range lists {
		total += len(l)
	}
	out := make([]*entry, 0, min(limit, total))
	h := cursors(lists)
	h.init()
	for len(h) > 0 && len(out) < limit {
		e := h[0][0]
		if len(out) == 0 || out[len(out)-1].pos != e.pos {
			out = append(out, e)
		}
		if h[0] = h[0][1:]; len(h[0]) == 0 {
			last := len(h) - 1
			h[0] = h[last]
			h = h[:last]
		}
		h.down(0)
	}
	return out
}

// cursors is a min-heap of the unread rests of sorted lists, keyed by their
// first entry's position.
type cursors [][]*entry

func (h cursors) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h cursors) down(i int) {
	for {
		least := i
		for _, c := range [2]int{2*i + 1, 2*i + 2} {
			if c < len(h) && h[c][0].pos < h[least][0].pos {
				least = c
			}
		}
		if least == i {
			return
		}
		h[i], h[least] = h[least], h[i]
		i = least
	}
}
