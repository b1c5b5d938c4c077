// Package features holds ADK's feature flags (google-adk 1.39.1's
// features/_feature_registry.py): each named feature has a stage and a
// default, and the environment can turn it on with ADK_ENABLE_<NAME> or
// off with ADK_DISABLE_<NAME>. The flags are read once, at start-up, into a
// [Set] that the service hands to what depends on them.
package features

import (
	"context"
	"log/slog"
	"sort"
	"strings"
)

// Name names a feature, as ADK's FeatureName values do.
type Name string

// The features of ADK's registry.
const (
	AgentConfig                     Name = "AGENT_CONFIG"
	AgentState                      Name = "AGENT_STATE"
	AuthenticatedFunctionTool       Name = "AUTHENTICATED_FUNCTION_TOOL"
	BaseAuthenticatedTool           Name = "BASE_AUTHENTICATED_TOOL"
	BigQueryToolset                 Name = "BIG_QUERY_TOOLSET"
	BigQueryToolConfig              Name = "BIG_QUERY_TOOL_CONFIG"
	BigtableToolSettings            Name = "BIGTABLE_TOOL_SETTINGS"
	BigtableToolset                 Name = "BIGTABLE_TOOLSET"
	ComputerUse                     Name = "COMPUTER_USE"
	DataAgentToolConfig             Name = "DATA_AGENT_TOOL_CONFIG"
	DataAgentToolset                Name = "DATA_AGENT_TOOLSET"
	EnvironmentSimulation           Name = "ENVIRONMENT_SIMULATION"
	GoogleCredentialsConfig         Name = "GOOGLE_CREDENTIALS_CONFIG"
	GoogleTool                      Name = "GOOGLE_TOOL"
	JSONSchemaForFuncDecl           Name = "JSON_SCHEMA_FOR_FUNC_DECL"
	MCPGracefulErrorHandling        Name = "MCP_GRACEFUL_ERROR_HANDLING"
	ProgressiveSSEStreaming         Name = "PROGRESSIVE_SSE_STREAMING"
	PubSubToolConfig                Name = "PUBSUB_TOOL_CONFIG"
	PubSubToolset                   Name = "PUBSUB_TOOLSET"
	SkillToolset                    Name = "SKILL_TOOLSET"
	SpannerToolset                  Name = "SPANNER_TOOLSET"
	SpannerAdminToolset             Name = "SPANNER_ADMIN_TOOLSET"
	SpannerToolSettings             Name = "SPANNER_TOOL_SETTINGS"
	SpannerVectorStore              Name = "SPANNER_VECTOR_STORE"
	ToolConfig                      Name = "TOOL_CONFIG"
	ToolConfirmation                Name = "TOOL_CONFIRMATION"
	PluggableAuth                   Name = "PLUGGABLE_AUTH"
	SnakeCaseSkillName              Name = "SNAKE_CASE_SKILL_NAME"
	InMemorySessionServiceLightCopy Name = "IN_MEMORY_SESSION_SERVICE_LIGHT_COPY"
)

// Stage is a feature's lifecycle stage.
type Stage string

// The stages of ADK's FeatureStage.
const (
	WIP          Stage = "wip"
	Experimental Stage = "experimental"
	Stable       Stage = "stable"
)

type feature struct {
	stage     Stage
	defaultOn bool
}

// registry is ADK's _FEATURE_REGISTRY.
var registry = map[Name]feature{
	AgentConfig:                     {Experimental, true},
	AgentState:                      {Experimental, true},
	AuthenticatedFunctionTool:       {Experimental, true},
	BaseAuthenticatedTool:           {Experimental, true},
	BigQueryToolset:                 {Stable, true},
	BigQueryToolConfig:              {Stable, true},
	BigtableToolSettings:            {Experimental, true},
	BigtableToolset:                 {Experimental, true},
	ComputerUse:                     {Experimental, true},
	DataAgentToolConfig:             {Experimental, true},
	DataAgentToolset:                {Experimental, true},
	EnvironmentSimulation:           {Experimental, true},
	GoogleCredentialsConfig:         {Experimental, true},
	GoogleTool:                      {Experimental, true},
	JSONSchemaForFuncDecl:           {WIP, false},
	MCPGracefulErrorHandling:        {Experimental, true},
	ProgressiveSSEStreaming:         {Experimental, true},
	PubSubToolConfig:                {Experimental, true},
	PubSubToolset:                   {Experimental, true},
	SkillToolset:                    {Experimental, true},
	SpannerAdminToolset:             {Experimental, true},
	SpannerToolset:                  {Experimental, true},
	SpannerToolSettings:             {Experimental, true},
	SpannerVectorStore:              {Experimental, true},
	ToolConfig:                      {Experimental, true},
	ToolConfirmation:                {Experimental, true},
	PluggableAuth:                   {Experimental, true},
	SnakeCaseSkillName:              {Experimental, false},
	InMemorySessionServiceLightCopy: {WIP, false},
}

// otherSwitches are ADK's ADK_ENABLE_/ADK_DISABLE_ variables that are not
// feature flags; they are not warned about.
var otherSwitches = map[string]bool{
	"ADK_DISABLE_GEMINI_MODEL_ID_CHECK": true,
	"ADK_DISABLE_LOAD_DOTENV":           true,
	"ADK_DISABLE_LOCAL_STORAGE":         true,
}

// StageOf returns the stage of a feature of ADK's registry; ok is false for
// a name not in it.
func StageOf(n Name) (stage Stage, ok bool) {
	f, ok := registry[n]
	return f.stage, ok
}

// Set is the state of every feature. The zero value holds ADK's defaults.
// A Set is not changed after start-up and is safe for concurrent reads.
type Set struct {
	// set holds the features the environment turned on or off.
	set map[Name]bool
}

// Enabled reports whether feature n is on: as the environment set it, else
// as ADK's registry defaults it. A name not in the registry is off.
func (s Set) Enabled(n Name) bool {
	if on, ok := s.set[n]; ok {
		return on
	}
	return registry[n].defaultOn
}

// With returns a copy of s with n turned on or off, as ADK's
// override_feature_enabled (which outranks the environment).
func (s Set) With(n Name, on bool) Set {
	set := make(map[Name]bool, len(s.set)+1)
	for k, v := range s.set {
		set[k] = v
	}
	set[n] = on
	return Set{set: set}
}

// FromEnv reads the flags from environ ("KEY=value" pairs, as os.Environ
// returns them), with ADK's precedence: ADK_ENABLE_<NAME> set to a true
// value (see [EnvEnabled]) turns the feature on, even when ADK_DISABLE_<NAME>
// is set too; else ADK_DISABLE_<NAME> set to a true value turns it off;
// else the registry's default holds. Each ADK_ENABLE_ or ADK_DISABLE_
// variable that names no feature is logged once, as a warning, on log
// (nil: slog's default).
func FromEnv(ctx context.Context, log *slog.Logger, environ []string) Set {
	if log == nil {
		log = slog.Default()
	}
	values := map[string]string{}
	var unknown []string
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		values[k] = v
		for _, prefix := range []string{"ADK_ENABLE_", "ADK_DISABLE_"} {
			if name, ok := strings.CutPrefix(k, prefix); ok {
				if _, known := registry[Name(name)]; !known && !otherSwitches[k] {
					unknown = append(unknown, k)
				}
			}
		}
	}
	sort.Strings(unknown)
	for i, k := range unknown {
		if i == 0 || unknown[i-1] != k {
			log.WarnContext(ctx, "unknown ADK feature flag ignored", "variable", k)
		}
	}
	s := Set{set: map[Name]bool{}}
	for n := range registry {
		switch {
		case EnvEnabled(values["ADK_ENABLE_"+string(n)]):
			s.set[n] = true
		case EnvEnabled(values["ADK_DISABLE_"+string(n)]):
			s.set[n] = false
		}
	}
	return s
}

// EnvEnabled reports whether an environment variable's value turns a
// switch on, as ADK's is_env_enabled: "true" or "1", in any case, and
// nothing else (an unset variable is off).
func EnvEnabled(value string) bool {
	return value == "1" || strings.EqualFold(value, "true")
}

// Changed returns the features the environment set away from their
// defaults, sorted.
func (s Set) Changed() []Name {
	var out []Name
	for n, on := range s.set {
		if on != registry[n].defaultOn {
			out = append(out, n)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
