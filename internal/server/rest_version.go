package server

import (
	"encoding/json"
	"net/http"
	"runtime"
	"runtime/debug"
)

// ADKAPIVersion is the google-adk release whose API-server routes and JSON
// shapes agentsvc's REST speaks (its apps' runtime behaviour follows the
// release line each app's adk_behavior names).
const ADKAPIVersion = "2.13.0"

// versionInfo is the body of GET /version: ADK's fields (version, language,
// language_version) with version naming agentsvc's build, plus the ADK
// version whose API it speaks.
type versionInfo struct {
	Version         string `json:"version"`
	Language        string `json:"language"`
	LanguageVersion string `json:"language_version"`
	ADKVersion      string `json:"adk_version"`
}

// buildVersion is agentsvc's version as its build recorded it; see
// [versionOf].
func buildVersion() string {
	bi, _ := debug.ReadBuildInfo()
	return versionOf(bi)
}

// versionOf names the build bi describes: the main module's version (a
// tag, or the pseudo-version the go command derives from the commit);
// else the commit and its time ("devel <revision>[+dirty] <time>"); else
// "devel".
func versionOf(bi *debug.BuildInfo) string {
	if bi == nil {
		return "devel"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, at string
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	v := "devel " + rev
	if dirty {
		v += "+dirty"
	}
	if at != "" {
		v += " " + at
	}
	return v
}

// serveVersion answers GET /version.
func serveVersion(w http.ResponseWriter, _ *http.Request, _ map[string]string) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(versionInfo{
		Version:         buildVersion(),
		Language:        "go",
		LanguageVersion: runtime.Version(),
		ADKVersion:      ADKAPIVersion,
	})
}
