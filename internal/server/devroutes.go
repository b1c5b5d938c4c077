package server

import (
	"encoding/json"
	"net/http"
	"runtime"
	"runtime/debug"
)

// ADKAPIVersion is the google-adk release whose API-server routes and JSON
// shapes agentsvc's REST speaks.
const ADKAPIVersion = "1.19.0"

// versionInfo is the body of GET /version: ADK's fields (version, language,
// language_version) with version naming agentsvc's build, plus the ADK
// version whose API it speaks.
type versionInfo struct {
	Version         string `json:"version"`
	Language        string `json:"language"`
	LanguageVersion string `json:"language_version"`
	ADKVersion      string `json:"adk_version"`
}

// buildVersion is agentsvc's module version from the build, "devel" when
// the binary was not built from a tagged module.
func buildVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
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
