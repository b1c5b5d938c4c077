package a2a

import (
	"fmt"
	"strings"

	"github.com/a2aproject/a2a-go/a2a"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
)

// cardVersion is the version ADK's AgentCardBuilder gives an agent without
// one.
const cardVersion = "0.0.1"

// protocolVersion is the A2A protocol version the SDK speaks.
const protocolVersion = "0.3.0"

// BuildCard returns the agent card of an app as ADK's AgentCardBuilder
// builds it from the root agent: its name and description ("An ADK Agent"
// without one), rpcURL as the card's URL, text in and out, and skills for
// the agent, its tools and, prefixed with their names, its sub-agents.
// The card declares streaming, which the service serves.
func BuildCard(root *api.AgentInfo, rpcURL string) *a2a.AgentCard {
	desc := root.GetDescription()
	if desc == "" {
		desc = "An ADK Agent"
	}
	return &a2a.AgentCard{
		Name:               root.GetName(),
		Description:        desc,
		URL:                strings.TrimRight(rpcURL, "/"),
		Version:            cardVersion,
		ProtocolVersion:    protocolVersion,
		PreferredTransport: a2a.TransportProtocolJSONRPC,
		Capabilities:       a2a.AgentCapabilities{Streaming: true},
		Skills:             append(primarySkills(root), subAgentSkills(root)...),
		DefaultInputModes:  []string{"text/plain"},
		DefaultOutputModes: []string{"text/plain"},
	}
}

func isLLM(a *api.AgentInfo) bool {
	return a.GetAgentClass() == "LlmAgent" || a.GetAgentClass() == ""
}

// primarySkills is ADK's _build_primary_skills.
func primarySkills(a *api.AgentInfo) []a2a.AgentSkill {
	if isLLM(a) {
		skills := []a2a.AgentSkill{{ID: a.GetName(), Name: "model", Description: agentDescription(a), Tags: []string{"llm"}}}
		for _, t := range a.GetTools() {
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
	skills := []a2a.AgentSkill{{ID: a.GetName(), Name: skillName(a), Description: agentDescription(a), Tags: []string{kind}}}
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
func subAgentSkills(a *api.AgentInfo) []a2a.AgentSkill {
	var out []a2a.AgentSkill
	for _, sub := range a.GetSubAgents() {
		for _, s := range primarySkills(sub) {
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

// agentDescription is ADK's _build_agent_description. The loop's bound is
// not part of AgentInfo: a loop reads "unlimited" iterations.
func agentDescription(a *api.AgentInfo) string {
	var parts []string
	if a.GetDescription() != "" {
		parts = append(parts, a.GetDescription())
	}
	if !isLLM(a) {
		if w := workflowDescription(a); w != "" {
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

func workflowDescription(a *api.AgentInfo) string {
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
	var b []string
	switch a.GetAgentClass() {
	case "SequentialAgent":
		for i, s := range subs {
			switch {
			case i == 0:
				b = append(b, "First, this agent will "+desc(s))
			case i == len(subs)-1:
				b = append(b, "Finally, this agent will "+desc(s))
			default:
				b = append(b, "Then, this agent will "+desc(s))
			}
		}
		return strings.Join(b, " ") + "."
	case "ParallelAgent", "LoopAgent":
		for i, s := range subs {
			switch {
			case i == 0:
				b = append(b, "This agent will "+desc(s))
			case i == len(subs)-1:
				b = append(b, "and "+desc(s))
			default:
				b = append(b, ", "+desc(s))
			}
		}
		if a.GetAgentClass() == "ParallelAgent" {
			return strings.Join(b, " ") + " simultaneously."
		}
		return fmt.Sprintf("%s in a loop (max %s iterations).", strings.Join(b, " "), "unlimited")
	}
	return ""
}
