package llmagent_test

import "github.com/google/go-cmp/cmp"

func cmpEqual(a, b any) bool { return cmp.Equal(a, b) }

func cmpDiff(want, got any) string { return cmp.Diff(want, got) }
