package artifactstest

import "slices"

// sortStrings sorts as Python's sorted() sorts str: by code point, which is
// UTF-8 byte order.
func sortStrings(s []string) { slices.Sort(s) }
