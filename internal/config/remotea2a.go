package config

import (
	"errors"
	"fmt"
	"sort"
	"time"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/a2a/remote"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// remoteA2aClass is ADK's RemoteA2aAgent: an agent reached over A2A.
const remoteA2aClass = "RemoteA2aAgent"

// maxRemoteTimeout bounds a RemoteA2aAgent's timeout (seconds).
const maxRemoteTimeout = 3600

// validateRemoteA2a checks the RemoteA2aAgent fields: agent_card, an http
// or https URL or a file path, only on that class; timeout in (0, 3600] seconds.
func (c *AgentConfig) validateRemoteA2a() error {
	if c.AgentClass != remoteA2aClass {
		switch {
		case c.AgentCard != "":
			return fmt.Errorf("agent_card: only applies to %s", remoteA2aClass)
		case c.Timeout != 0:
			return fmt.Errorf("timeout: only applies to %s", remoteA2aClass)
		}
		return nil
	}
	if c.AgentCard == "" {
		return errors.New("agent_card: required for " + remoteA2aClass)
	}
	if len(c.AgentCard) > 2048 {
		return errors.New("agent_card: longer than 2048 bytes")
	}
	if err := remote.CheckAgentCard(c.AgentCard); err != nil {
		return err
	}
	if c.Timeout < 0 || c.Timeout > maxRemoteTimeout {
		return fmt.Errorf("timeout: %v is not between 0 and %d seconds", c.Timeout, maxRemoteTimeout)
	}
	fields := llmOnlyFields(c)
	if c.MaxIterations != 0 {
		fields = append(fields, "max_iterations")
	}
	if len(fields) > 0 {
		sort.Strings(fields)
		return fmt.Errorf("%s: does not apply to %s", fields[0], remoteA2aClass)
	}
	return nil
}

// buildRemoteA2a builds a RemoteA2aAgent; its card is fetched on its
// first run.
func buildRemoteA2a(c *AgentConfig) (runtime.Agent, *api.AgentInfo, error) {
	cbs, err := buildCallbacks(c)
	if err != nil {
		return nil, nil, err
	}
	info := &api.AgentInfo{Name: c.Name, AgentClass: c.AgentClass, Description: c.Description, Callbacks: cbs.info}
	subs, err := buildChildren(c, info)
	if err != nil {
		return nil, nil, err
	}
	agent, err := remote.New(remote.Config{Name: c.Name, Description: c.Description, AgentCard: c.AgentCard,
		Timeout: time.Duration(c.Timeout * float64(time.Second)), SubAgents: subs, Callbacks: cbs.agent})
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", c.file, err)
	}
	return agent, info, nil
}
