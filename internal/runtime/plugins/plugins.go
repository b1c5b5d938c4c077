// Package plugins holds ADK's built-in plugins that an app can name in its
// app.yaml: ContextFilterPlugin, DebugLoggingPlugin,
// GlobalInstructionPlugin, MultimodalToolResultsPlugin,
// ReflectAndRetryToolPlugin and SaveFilesAsArtifactsPlugin, with the
// constructor arguments ADK gives them (callables aside).
package plugins

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/agentsvc/agentsvc/internal/runtime"
)

// constructors builds each plugin from its arguments.
var constructors = map[string]func(args *arguments) (*runtime.Plugin, error){
	"ContextFilterPlugin":         newContextFilter,
	"DebugLoggingPlugin":          newDebugLogging,
	"GlobalInstructionPlugin":     newGlobalInstruction,
	"MultimodalToolResultsPlugin": newMultimodalToolResults,
	"ReflectAndRetryToolPlugin":   newReflectAndRetry,
	"SaveFilesAsArtifactsPlugin":  newSaveFilesAsArtifacts,
}

// Names lists the plugins [New] knows, sorted.
func Names() []string { return slices.Sorted(maps.Keys(constructors)) }

// New returns the built-in plugin called name, configured with args (the
// keyword arguments of its ADK constructor). Unknown names and arguments,
// and arguments of the wrong type, are errors naming them.
func New(name string, args map[string]any) (*runtime.Plugin, error) {
	build, ok := constructors[name]
	if !ok {
		return nil, fmt.Errorf("no plugin named %q (built-in plugins: %s)", name, strings.Join(Names(), ", "))
	}
	a := &arguments{values: args, used: map[string]bool{}}
	p, err := build(a)
	if err != nil {
		return nil, err
	}
	for _, k := range slices.Sorted(maps.Keys(args)) {
		if !a.used[k] {
			return nil, fmt.Errorf("args.%s: %s takes no such argument", k, name)
		}
	}
	return p, nil
}

// arguments reads a plugin's arguments, noting those read.
type arguments struct {
	values map[string]any
	used   map[string]bool
}

func (a *arguments) get(key string) (any, bool) {
	a.used[key] = true
	v, ok := a.values[key]
	return v, ok && v != nil
}

func (a *arguments) string(key, def string) (string, error) {
	v, ok := a.get(key)
	if !ok {
		return def, nil
	}
	s, isString := v.(string)
	if !isString {
		return "", fmt.Errorf("args.%s: want a string, got %v", key, v)
	}
	return s, nil
}

func (a *arguments) bool(key string, def bool) (bool, error) {
	v, ok := a.get(key)
	if !ok {
		return def, nil
	}
	b, isBool := v.(bool)
	if !isBool {
		return false, fmt.Errorf("args.%s: want true or false, got %v", key, v)
	}
	return b, nil
}

// int returns the integer under key; ok is false when it is absent.
func (a *arguments) int(key string) (n int, ok bool, err error) {
	v, ok := a.get(key)
	if !ok {
		return 0, false, nil
	}
	switch x := v.(type) {
	case int:
		return x, true, nil
	case float64:
		if x == float64(int(x)) {
			return int(x), true, nil
		}
	}
	return 0, false, fmt.Errorf("args.%s: want an integer, got %v", key, v)
}
