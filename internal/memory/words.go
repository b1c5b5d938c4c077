package memory

import (
	"slices"
)

// Words returns the distinct words of texts, lower-cased and sorted, as ADK's
// in-memory matching finds them: every run of ASCII letters (the regular
// expression [A-Za-z]+) is a word. Digits, punctuation and every other
// character separate words, so "café" holds the word "caf" and "naïve" the
// words "na" and "ve"; no word spans two texts. It returns nil when there
// is no word. A word may share memory with the text it was found in.
func Words(texts ...string) []string {
	var set wordSet
	for _, text := range texts {
		for i := 0; i < len(text); {
			if !isLetter(text[i]) {
				i++
				continue
			}
			start, lower := i, true
			for ; i < len(text) && isLetter(text[i]); i++ {
				lower = lower && text[i] >= 'a'
			}
			set.add(text[start:i], lower)
		}
	}
	slices.Sort(set.words)
	return set.words
}

// linearWords is how many distinct words a [wordSet] finds repeats of by
// comparing with each, before it builds a map: most texts are short.
const linearWords = 32

// wordSet gathers distinct words.
type wordSet struct {
	words []string
	seen  map[string]struct{}
	lower []byte
}

// add adds w, lower-cased unless lower says it is, when it is new.
func (s *wordSet) add(w string, lower bool) {
	if !lower {
		s.lower = appendLower(s.lower[:0], w)
	}
	if s.has(w, lower) {
		return
	}
	if !lower {
		w = string(s.lower)
	}
	s.words = append(s.words, w)
	switch {
	case s.seen != nil:
		s.seen[w] = struct{}{}
	case len(s.words) > linearWords:
		s.seen = make(map[string]struct{}, 2*len(s.words))
		for _, x := range s.words {
			s.seen[x] = struct{}{}
		}
	}
}

// has reports whether the set holds w, or the lower-cased word in s.lower
// unless lower.
func (s *wordSet) has(w string, lower bool) bool {
	if s.seen != nil {
		if !lower {
			_, ok := s.seen[string(s.lower)]
			return ok
		}
		_, ok := s.seen[w]
		return ok
	}
	for _, x := range s.words {
		if lower && x == w || !lower && x == string(s.lower) {
			return true
		}
	}
	return false
}

// isLetter reports whether b is an ASCII letter. No byte of a multi-byte
// UTF-8 sequence is ASCII, so scanning bytes finds ADK's words.
func isLetter(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

func appendLower(dst []byte, w string) []byte {
	for i := range len(w) {
		c := w[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}
