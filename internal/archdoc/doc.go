// Package archdoc holds only a test: every package under internal/ is named in docs/architecture.md.
package archdoc
