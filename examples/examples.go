// Package examples bundles the example apps, served when agentsvc starts
// without --agents.
package examples

import "embed"

// FS holds one directory per example app, each with its root_agent.yaml.
//
//go:embed */*.yaml
var FS embed.FS
