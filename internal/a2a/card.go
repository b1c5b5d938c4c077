package a2a

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/a2aproject/a2a-go/a2a"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
)

// cardVersion is the version ADK's AgentCardBuilder gives an agent without
// one.
const cardVersion = "0.0.1"

// protocolVersion is the A2A protocol version the SDK speaks.
const protocolVersion = "0.3.0"

// Card is an agent card that A2A 0.3 and 1.0 clients both read: 0.3's
// fields (url, preferredTransport, protocolVersion, security) and 1.0's
// supportedInterfaces and securityRequirements; each security scheme holds
// both its 0.3 form (type, scheme) and its 1.0 one (httpAuthSecurityScheme,
// mtlsSecurityScheme). Its one interface is JSON-RPC of protocol 0.3, so
// that a 1.0 client (a2a-sdk 1.x) calls it with its 0.3 transport.
type Card struct {
	a2a.AgentCard
	SupportedInterfaces  []Interface               `json:"supportedInterfaces"`
	SecuritySchemes      map[string]map[string]any `json:"securitySchemes,omitempty"`
	SecurityRequirements []map[string]any          `json:"securityRequirements,omitempty"`
}

// Interface is an A2A 1.0 AgentInterface: where, over which binding and
// protocol version, the agent answers.
type Interface struct {
	URL             string `json:"url"`
	ProtocolBinding string `json:"protocolBinding"`
	ProtocolVersion string `json:"protocolVersion"`
}

// CardOptions are what a card declares beyond the agent tree.
type CardOptions struct {
	// Bearer declares the bearer-token scheme ("bearer", JWT) that the
	// service requires (--auth jwt).
	Bearer bool
	// MutualTLS declares client certificates ("mtls") as a way in, beside
	// bearer tokens when both are on.
	MutualTLS bool
	// MaxIterations is each loop agent's max_iterations by agent name;
	// missing or 0 reads "unlimited".
	MaxIterations map[string]int
}

// Scheme names a card declares.
const (
	bearerScheme = "bearer"
	mtlsScheme   = "mtls"
)

// BuildCard returns the agent card of an app as ADK's AgentCardBuilder
// builds it from the root agent: its name and description ("An ADK Agent"
// without one), rpcURL as the card's URL, text in and out, and skills for
// the agent, its tools (but client tools, which cannot run over A2A) and,
// prefixed with their names, its sub-agents. The card declares streaming,
// which the service serves, and the security schemes of opts.
func BuildCard(root *api.AgentInfo, rpcURL string, opts CardOptions) *Card {
	desc := root.GetDescription()
	if desc == "" {
		desc = "An ADK Agent"
	}
	url := strings.TrimRight(rpcURL, "/")
	b := cardBuilder{maxIterations: opts.MaxIterations}
	c := &Card{
		AgentCard: a2a.AgentCard{
			Name:               root.GetName(),
			Description:        desc,
			URL:                url,
			Version:            cardVersion,
			ProtocolVersion:    protocolVersion,
			PreferredTransport: a2a.TransportProtocolJSONRPC,
			Capabilities:       a2a.AgentCapabilities{Streaming: true},
			Skills:             append(b.primarySkills(root), b.subAgentSkills(root)...),
			DefaultInputModes:  []string{"text/plain"},
			DefaultOutputModes: []string{"text/plain"},
		},
		SupportedInterfaces: []Interface{{URL: url, ProtocolBinding: string(a2a.TransportProtocolJSONRPC),
			ProtocolVersion: protocolVersion}},
	}
	c.declareSecurity(opts)
	return c
}

// declareSecurity declares the schemes of opts, any one of which lets a
// caller in: bearer tokens as an http scheme, client certificates as
// mutual TLS.
func (c *Card) declareSecurity(opts CardOptions) {
	var names []string
	if opts.Bearer {
		names = append(names, bearerScheme)
	}
	if opts.MutualTLS {
		names = append(names, mtlsScheme)
	}
	if len(names) == 0 {
		return
	}
	c.SecuritySchemes = map[string]map[string]any{}
	for _, n := range names {
		var v0, v1 map[string]any
		switch n {
		case bearerScheme:
			v0 = map[string]any{"type": "http", "scheme": "bearer", "bearerFormat": "JWT"}
			v1 = map[string]any{"httpAuthSecurityScheme": map[string]any{"scheme": "Bearer", "bearerFormat": "JWT"}}
		case mtlsScheme:
			v0 = map[string]any{"type": "mutualTLS"}
			v1 = map[string]any{"mtlsSecurityScheme": map[string]any{}}
		}
		for k, v := range v1 {
			v0[k] = v
		}
		c.SecuritySchemes[n] = v0
		c.Security = append(c.Security, a2a.SecurityRequirements{a2a.SecuritySchemeName(n): a2a.SecuritySchemeScopes{}})
		c.SecurityRequirements = append(c.SecurityRequirements,
			map[string]any{"schemes": map[string]any{n: map[string]any{"list": []string{}}}})
	}
}

// cardBuilder builds skills; maxIterations holds what AgentInfo does not.
type cardBuilder struct {
	maxIterations map[string]int
}

func isLLM(a *api.AgentInfo) bool {
	return a.GetAgentClass() == "LlmAgent" || a.GetAgentClass() == ""
}

// primarySkills is ADK's _build_primary_skills, without client tools.
func (b cardBuilder) primarySkills(a *api.AgentInfo) []a2a.AgentSkill {
	if isLLM(a) {
		skills := []a2a.AgentSkill{{ID: a.GetName(), Name: "model", Description: b.agentDescription(a), Tags: []string{"llm"}}}
		for _, t := range a.GetTools() {
			if t.GetRemote() {
				continue
			}
			desc := t.GetDescription()
			if desc == "" {
				desc = "Tool: " + t.GetName()
			}
			skills = append(skills, a2a.AgentSkill{ID: a.GetName() + "-" + t.GetName(), Name: t.GetName(),
				Description: desc, Tags: []string{"llm", "tools"}})
		}
		return skills
	}
	kind := agentType(a)
	skills := []a2a.AgentSkill{{ID: a.GetName(), Name: skillName(a), Description: b.agentDescription(a), Tags: []string{kind}}}
	if len(a.GetSubAgents()) > 0 {
		descs := make([]string, 0, len(a.GetSubAgents()))
		for _, s := range a.GetSubAgents() {
			d := s.GetDescription()
			if d == "" {
				d = "No description"
			}
			descs = append(descs, s.GetName()+": "+d)
		}
		skills = append(skills, a2a.AgentSkill{ID: a.GetName() + "-sub-agents", Name: "sub-agents",
			Description: "Orchestrates: " + strings.Join(descs, "; "), Tags: []string{kind, "orchestration"}})
	}
	return skills
}

// subAgentSkills is ADK's _build_sub_agent_skills: each direct sub-agent's
// primary skills under its name.
func (b cardBuilder) subAgentSkills(a *api.AgentInfo) []a2a.AgentSkill {
	var out []a2a.AgentSkill
	for _, sub := range a.GetSubAgents() {
		for _, s := range b.primarySkills(sub) {
			out = append(out, a2a.AgentSkill{
				ID: sub.GetName() + "_" + s.ID, Name: sub.GetName() + ": " + s.Name, Description: s.Description,
				Tags: append([]string{"sub_agent:" + sub.GetName()}, s.Tags...),
			})
		}
	}
	return out
}

func agentType(a *api.AgentInfo) string {
	switch a.GetAgentClass() {
	case "LlmAgent", "":
		return "llm"
	case "SequentialAgent":
		return "sequential_workflow"
	case "ParallelAgent":
		return "parallel_workflow"
	case "LoopAgent":
		return "loop_workflow"
	}
	return "custom_agent"
}

func skillName(a *api.AgentInfo) string {
	switch a.GetAgentClass() {
	case "LlmAgent", "":
		return "model"
	case "SequentialAgent", "ParallelAgent", "LoopAgent":
		return "workflow"
	}
	return "custom"
}

// agentDescription is ADK's _build_agent_description.
func (b cardBuilder) agentDescription(a *api.AgentInfo) string {
	var parts []string
	if a.GetDescription() != "" {
		parts = append(parts, a.GetDescription())
	}
	if !isLLM(a) {
		if w := b.workflowDescription(a); w != "" {
			parts = append(parts, w)
		}
	}
	if len(parts) > 0 {
		return strings.Join(parts, " ")
	}
	switch a.GetAgentClass() {
	case "LlmAgent", "":
		return "An LLM-based agent"
	case "SequentialAgent":
		return "A sequential workflow agent"
	case "ParallelAgent":
		return "A parallel workflow agent"
	case "LoopAgent":
		return "A loop workflow agent"
	}
	return "A custom agent"
}

func (b cardBuilder) workflowDescription(a *api.AgentInfo) string {
	subs := a.GetSubAgents()
	if len(subs) == 0 {
		return ""
	}
	desc := func(s *api.AgentInfo) string {
		if s.GetDescription() != "" {
			return s.GetDescription()
		}
		return "execute the " + s.GetName() + " agent"
	}
	var out []string
	switch a.GetAgentClass() {
	case "SequentialAgent":
		for i, s := range subs {
			switch {
			case i == 0:
				out = append(out, "First, this agent will "+desc(s))
			case i == len(subs)-1:
				out = append(out, "Finally, this agent will "+desc(s))
			default:
				out = append(out, "Then, this agent will "+desc(s))
			}
		}
		return strings.Join(out, " ") + "."
	case "ParallelAgent", "LoopAgent":
		for i, s := range subs {
			switch {
			case i == 0:
				out = append(out, "This agent will "+desc(s))
			case i == len(subs)-1:
				out = append(out, "and "+desc(s))
			default:
				out = append(out, ", "+desc(s))
			}
		}
		if a.GetAgentClass() == "ParallelAgent" {
			return strings.Join(out, " ") + " simultaneously."
		}
		// ADK 1.39.1 reads an unset (or 0) bound as unlimited; 2.13 only an
		// unset one, and max_iterations 0 is unset here.
		bound := "unlimited"
		if n := b.maxIterations[a.GetName()]; n > 0 {
			bound = strconv.Itoa(n)
		}
		return fmt.Sprintf("%s in a loop (max %s iterations).", strings.Join(out, " "), bound)
	}
	return ""
}
