package plugins_test

// What DebugLoggingPlugin wrote, probed from google-adk 1.39.1 (PyYAML
// 6.0.4) with a scripted model running debugScenario: two invocations,
// the first calling lookup, the second answering at once. Timestamps,
// invocation ids and event ids differ from run to run; the tests compare
// them replaced (see normalizeDebugLog).
const (
	// adkDebugLog: DebugLoggingPlugin() with its defaults.
	adkDebugLog = `---
invocation_id: e-ddd1c6c9-94c7-42bb-a7c9-16a115c25a80
session_id: s1
app_name: app
user_id: u
start_time: '2026-11-26T13:06:20.967419'
entries:
- timestamp: '2026-11-26T13:06:20.967457'
  entry_type: invocation_start
  invocation_id: e-ddd1c6c9-94c7-42bb-a7c9-16a115c25a80
  agent_name: root_agent
  data:
    branch: null
- timestamp: '2026-11-26T13:06:20.967725'
  entry_type: agent_start
  invocation_id: e-ddd1c6c9-94c7-42bb-a7c9-16a115c25a80
  agent_name: root_agent
  data:
    branch: null
- timestamp: '2026-11-26T13:06:21.288914'
  entry_type: llm_request
  invocation_id: e-ddd1c6c9-94c7-42bb-a7c9-16a115c25a80
  agent_name: root_agent
  data:
    model: scripted-model
    content_count: 1
    contents:
    - role: user
      parts:
      - text: weather?
      - inline_data:
          mime_type: image/png
          display_name: a.png
          _data_omitted: true
    tools:
    - lookup
    - fail
    config:
      system_instruction: 'Be brief. User is Ada.


        You are an agent. Your internal name is "root_agent".'
      temperature: 0.7
      top_p: 0.95
      top_k: 40.0
      max_output_tokens: 100
- timestamp: '2026-11-26T13:06:21.292133'
  entry_type: llm_response
  invocation_id: e-ddd1c6c9-94c7-42bb-a7c9-16a115c25a80
  agent_name: root_agent
  data:
    content:
      role: model
      parts:
      - function_call:
          id: c1
          name: lookup
          args:
            city: Paris
            days: 3
    partial: null
    turn_complete: null
- timestamp: '2026-11-26T13:06:21.293225'
  entry_type: event
  invocation_id: e-ddd1c6c9-94c7-42bb-a7c9-16a115c25a80
  agent_name: root_agent
  data:
    event_id: f8ee33ab-7926-4770-a45b-479b75749e22
    author: root_agent
    content:
      role: model
      parts:
      - function_call:
          id: c1
          name: lookup
          args:
            city: Paris
            days: 3
    is_final_response: false
    partial: null
    turn_complete: null
    branch: null
- timestamp: '2026-11-26T13:06:21.293631'
  entry_type: tool_call
  invocation_id: e-ddd1c6c9-94c7-42bb-a7c9-16a115c25a80
  agent_name: root_agent
  data:
    tool_name: lookup
    function_call_id: c1
    args:
      city: Paris
      days: 3
- timestamp: '2026-11-26T13:06:21.294009'
  entry_type: tool_response
  invocation_id: e-ddd1c6c9-94c7-42bb-a7c9-16a115c25a80
  agent_name: root_agent
  data:
    tool_name: lookup
    function_call_id: c1
    result:
      city: Paris
      days: 3
      empty: {}
      empty_list: []
      list:
      - 1
      - two
      - x: y
      none: null
      ok: true
      temp: 21.5
- timestamp: '2026-11-26T13:06:21.297553'
  entry_type: event
  invocation_id: e-ddd1c6c9-94c7-42bb-a7c9-16a115c25a80
  agent_name: root_agent
  data:
    event_id: 9f84ee0b-7860-4c28-92fa-7eb569bdd19c
    author: root_agent
    content:
      role: user
      parts:
      - function_response:
          id: c1
          name: lookup
          response:
            city: Paris
            days: 3
            empty: {}
            empty_list: []
            list:
            - 1
            - two
            - x: y
            none: null
            ok: true
            temp: 21.5
    is_final_response: false
    partial: null
    turn_complete: null
    branch: null
- timestamp: '2026-11-26T13:06:21.301798'
  entry_type: llm_request
  invocation_id: e-ddd1c6c9-94c7-42bb-a7c9-16a115c25a80
  agent_name: root_agent
  data:
    model: scripted-model
    content_count: 3
    contents:
    - role: user
      parts:
      - text: weather?
      - inline_data:
          mime_type: image/png
          display_name: a.png
          _data_omitted: true
    - role: model
      parts:
      - function_call:
          id: c1
          name: lookup
          args:
            city: Paris
            days: 3
    - role: user
      parts:
      - function_response:
          id: c1
          name: lookup
          response:
            city: Paris
            days: 3
            empty: {}
            empty_list: []
            list:
            - 1
            - two
            - x: y
            none: null
            ok: true
            temp: 21.5
    tools:
    - lookup
    - fail
    config:
      system_instruction: 'Be brief. User is Ada.


        You are an agent. Your internal name is "root_agent".'
      temperature: 0.7
      top_p: 0.95
      top_k: 40.0
      max_output_tokens: 100
- timestamp: '2026-11-26T13:06:21.303761'
  entry_type: llm_response
  invocation_id: e-ddd1c6c9-94c7-42bb-a7c9-16a115c25a80
  agent_name: root_agent
  data:
    content:
      role: model
      parts:
      - text: "Line one: yes\nline two\n\n  indented 'quoted' #hash\nThis is a long line of text that goes on and on with\
          \ many words so that it passes the width of one hundred twenty characters for sure."
    partial: null
    turn_complete: null
    usage_metadata:
      prompt_token_count: 10
      candidates_token_count: 5
      total_token_count: 15
      cached_content_token_count: null
    finish_reason: FinishReason.STOP
    model_version: scripted-v1
- timestamp: '2026-11-26T13:06:21.304312'
  entry_type: event
  invocation_id: e-ddd1c6c9-94c7-42bb-a7c9-16a115c25a80
  agent_name: root_agent
  data:
    event_id: bab2f742-1ba3-47a4-8b1d-a08e868b7663
    author: root_agent
    content:
      role: model
      parts:
      - text: "Line one: yes\nline two\n\n  indented 'quoted' #hash\nThis is a long line of text that goes on and on with\
          \ many words so that it passes the width of one hundred twenty characters for sure."
    is_final_response: true
    partial: null
    turn_complete: null
    branch: null
    actions:
      state_delta:
        z_answer: "Line one: yes\nline two\n\n  indented 'quoted' #hash\nThis is a long line of text that goes on and on with\
          \ many words so that it passes the width of one hundred twenty characters for sure."
    usage_metadata:
      prompt_token_count: 10
      candidates_token_count: 5
      total_token_count: 15
- timestamp: '2026-11-26T13:06:21.304686'
  entry_type: agent_end
  invocation_id: e-ddd1c6c9-94c7-42bb-a7c9-16a115c25a80
  agent_name: root_agent
  data: {}
- timestamp: '2026-11-26T13:06:21.304850'
  entry_type: session_state_snapshot
  invocation_id: e-ddd1c6c9-94c7-42bb-a7c9-16a115c25a80
  data:
    state:
      f: 1.5
      n: 1
      t: 'true'
      user_name: Ada
      z_answer: "Line one: yes\nline two\n\n  indented 'quoted' #hash\nThis is a long line of text that goes on and on with\
        \ many words so that it passes the width of one hundred twenty characters for sure."
    event_count: 4
- timestamp: '2026-11-26T13:06:21.304875'
  entry_type: invocation_end
  invocation_id: e-ddd1c6c9-94c7-42bb-a7c9-16a115c25a80
  data: {}
---
invocation_id: e-2e71a90f-296d-4515-9c19-1a2f30ebcbef
session_id: s1
app_name: app
user_id: u
start_time: '2026-11-26T13:06:21.327764'
entries:
- timestamp: '2026-11-26T13:06:21.327798'
  entry_type: invocation_start
  invocation_id: e-2e71a90f-296d-4515-9c19-1a2f30ebcbef
  agent_name: root_agent
  data:
    branch: null
- timestamp: '2026-11-26T13:06:21.328089'
  entry_type: agent_start
  invocation_id: e-2e71a90f-296d-4515-9c19-1a2f30ebcbef
  agent_name: root_agent
  data:
    branch: null
- timestamp: '2026-11-26T13:06:21.332287'
  entry_type: llm_request
  invocation_id: e-2e71a90f-296d-4515-9c19-1a2f30ebcbef
  agent_name: root_agent
  data:
    model: scripted-model
    content_count: 5
    contents:
    - role: user
      parts:
      - text: weather?
      - inline_data:
          mime_type: image/png
          display_name: a.png
          _data_omitted: true
    - role: model
      parts:
      - function_call:
          id: c1
          name: lookup
          args:
            city: Paris
            days: 3
    - role: user
      parts:
      - function_response:
          id: c1
          name: lookup
          response:
            city: Paris
            days: 3
            empty: {}
            empty_list: []
            list:
            - 1
            - two
            - x: y
            none: null
            ok: true
            temp: 21.5
    - role: model
      parts:
      - text: "Line one: yes\nline two\n\n  indented 'quoted' #hash\nThis is a long line of text that goes on and on with\
          \ many words so that it passes the width of one hundred twenty characters for sure."
    - role: user
      parts:
      - text: more
    tools:
    - lookup
    - fail
    config:
      system_instruction: 'Be brief. User is Ada.


        You are an agent. Your internal name is "root_agent".'
      temperature: 0.7
      top_p: 0.95
      top_k: 40.0
      max_output_tokens: 100
- timestamp: '2026-11-26T13:06:21.334498'
  entry_type: llm_response
  invocation_id: e-2e71a90f-296d-4515-9c19-1a2f30ebcbef
  agent_name: root_agent
  data:
    content:
      role: model
      parts:
      - text: again
    partial: null
    turn_complete: null
- timestamp: '2026-11-26T13:06:21.335334'
  entry_type: event
  invocation_id: e-2e71a90f-296d-4515-9c19-1a2f30ebcbef
  agent_name: root_agent
  data:
    event_id: a2abb081-167d-422e-886a-6b7e57e8396b
    author: root_agent
    content:
      role: model
      parts:
      - text: again
    is_final_response: true
    partial: null
    turn_complete: null
    branch: null
    actions:
      state_delta:
        z_answer: again
- timestamp: '2026-11-26T13:06:21.335652'
  entry_type: agent_end
  invocation_id: e-2e71a90f-296d-4515-9c19-1a2f30ebcbef
  agent_name: root_agent
  data: {}
- timestamp: '2026-11-26T13:06:21.335801'
  entry_type: session_state_snapshot
  invocation_id: e-2e71a90f-296d-4515-9c19-1a2f30ebcbef
  data:
    state:
      f: 1.5
      n: 1
      t: 'true'
      user_name: Ada
      z_answer: again
    event_count: 6
- timestamp: '2026-11-26T13:06:21.335825'
  entry_type: invocation_end
  invocation_id: e-2e71a90f-296d-4515-9c19-1a2f30ebcbef
  data: {}
`

	// adkDebugLogBriefRequest: the first llm_request entry with
	// include_session_state=False, include_system_instruction=False
	// (the other entries as in adkDebugLog, less session_state_snapshot).
	adkDebugLogBriefRequest = `- timestamp: '2026-11-26T13:06:24.619794'
  entry_type: llm_request
  invocation_id: e-d916273d-ba13-417a-8687-375715b11577
  agent_name: root_agent
  data:
    model: scripted-model
    content_count: 1
    contents:
    - role: user
      parts:
      - text: weather?
      - inline_data:
          mime_type: image/png
          display_name: a.png
          _data_omitted: true
    tools:
    - lookup
    - fail
    config:
      system_instruction_length: 77
      temperature: 0.7
      top_p: 0.95
      top_k: 40.0
      max_output_tokens: 100
`
)

// Entries of DebugLoggingPlugin's file in other runs, probed from
// google-adk 1.39.1 the same way (see debugEntry).
const (
	// adkToolErrorEntry: tool_error of a call to an unknown tool, ReflectAndRetryToolPlugin answering it.
	adkToolErrorEntry = `- timestamp: '2026-11-26T13:06:28.339328'
  entry_type: tool_error
  invocation_id: e-19dd9165-20ac-4d06-8aa0-66eadbe09496
  agent_name: root_agent
  data:
    tool_name: nope
    function_call_id: c2
    args:
      q: z
    error_type: ValueError
    error_message: "Tool 'nope' not found.\nAvailable tools: lookup, fail\n\nPossible causes:\n  1. LLM hallucinated the function\
      \ name - review agent instruction clarity\n  2. Tool not registered - verify agent.tools list\n  3. Name mismatch -\
      \ check for typos\n\nSuggested fixes:\n  - Review agent instruction to ensure tool usage is clear\n  - Verify tool is\
      \ included in agent.tools list\n  - Check for typos in function name"
`
	// adkPartsResultEntry: tool_response of snap, which returned Parts (MultimodalToolResultsPlugin before DebugLoggingPlugin).
	adkPartsResultEntry = `- timestamp: '2026-11-26T13:07:16.631959'
  entry_type: tool_response
  invocation_id: e-571c88c7-f068-4c03-8f50-760d91d9aa15
  agent_name: root_agent
  data:
    tool_name: snap
    function_call_id: c1
    result:
    - inline_data:
        data: UE5H__4=
        mime_type: image/png
    - text: caption cat
`
	// adkPartsRequestEntry: the llm_request that carries snap's Parts.
	adkPartsRequestEntry = `- timestamp: '2026-11-26T13:07:16.640920'
  entry_type: llm_request
  invocation_id: e-571c88c7-f068-4c03-8f50-760d91d9aa15
  agent_name: root_agent
  data:
    model: scripted-model
    content_count: 3
    contents:
    - role: user
      parts:
      - text: go
    - role: model
      parts:
      - function_call:
          id: c1
          name: snap
          args:
            q: cat
    - role: user
      parts:
      - function_response:
          id: c1
          name: snap
          response:
            result:
            - inline_data:
                data: UE5H__4=
                mime_type: image/png
            - text: caption cat
      - inline_data:
          mime_type: image/png
          display_name: null
          _data_omitted: true
      - text: caption cat
    tools:
    - snap
    - word
    config:
      system_instruction: You are an agent. Your internal name is "root_agent".
`
	// adkPartsStateEntry: the state at the end of that invocation.
	adkPartsStateEntry = `- timestamp: '2026-11-26T13:07:16.651715'
  entry_type: session_state_snapshot
  invocation_id: e-571c88c7-f068-4c03-8f50-760d91d9aa15
  data:
    state:
      temp:PARTS_RETURNED_BY_TOOLS_ID: []
    event_count: 6
`
	// adkModelErrorEntry: llm_error of a 400 answer, another plugin answering instead.
	adkModelErrorEntry = `- timestamp: '2026-11-26T13:07:33.543509'
  entry_type: llm_error
  invocation_id: e-edb08fb1-7c1b-4a0d-b352-1ff3037a458a
  agent_name: root_agent
  data:
    error_type: ClientError
    error_message: '400 INVALID_ARGUMENT. {''error'': {''code'': 400, ''message'': ''bad request'', ''status'': ''INVALID_ARGUMENT''}}'
    model: scripted-model
`
	// adkModelErrorResponseEntry: the llm_response of that answer.
	adkModelErrorResponseEntry = `- timestamp: '2026-11-26T13:07:33.544061'
  entry_type: llm_response
  invocation_id: e-edb08fb1-7c1b-4a0d-b352-1ff3037a458a
  agent_name: root_agent
  data:
    content:
      role: model
      parts:
      - text: fallback
    partial: null
    turn_complete: null
`
)
