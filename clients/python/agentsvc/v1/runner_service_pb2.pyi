from agentsvc.v1 import content_pb2 as _content_pb2
from agentsvc.v1 import event_pb2 as _event_pb2
from agentsvc.v1 import llm_pb2 as _llm_pb2
from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class StreamingMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STREAMING_MODE_UNSPECIFIED: _ClassVar[StreamingMode]
    STREAMING_MODE_NONE: _ClassVar[StreamingMode]
    STREAMING_MODE_SSE: _ClassVar[StreamingMode]

class CallbackKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CALLBACK_KIND_UNSPECIFIED: _ClassVar[CallbackKind]
    CALLBACK_KIND_BEFORE_AGENT: _ClassVar[CallbackKind]
    CALLBACK_KIND_AFTER_AGENT: _ClassVar[CallbackKind]
    CALLBACK_KIND_BEFORE_MODEL: _ClassVar[CallbackKind]
    CALLBACK_KIND_AFTER_MODEL: _ClassVar[CallbackKind]
    CALLBACK_KIND_ON_MODEL_ERROR: _ClassVar[CallbackKind]
    CALLBACK_KIND_BEFORE_TOOL: _ClassVar[CallbackKind]
    CALLBACK_KIND_AFTER_TOOL: _ClassVar[CallbackKind]
    CALLBACK_KIND_ON_TOOL_ERROR: _ClassVar[CallbackKind]
STREAMING_MODE_UNSPECIFIED: StreamingMode
STREAMING_MODE_NONE: StreamingMode
STREAMING_MODE_SSE: StreamingMode
CALLBACK_KIND_UNSPECIFIED: CallbackKind
CALLBACK_KIND_BEFORE_AGENT: CallbackKind
CALLBACK_KIND_AFTER_AGENT: CallbackKind
CALLBACK_KIND_BEFORE_MODEL: CallbackKind
CALLBACK_KIND_AFTER_MODEL: CallbackKind
CALLBACK_KIND_ON_MODEL_ERROR: CallbackKind
CALLBACK_KIND_BEFORE_TOOL: CallbackKind
CALLBACK_KIND_AFTER_TOOL: CallbackKind
CALLBACK_KIND_ON_TOOL_ERROR: CallbackKind

class RunConfig(_message.Message):
    __slots__ = ("streaming_mode", "max_llm_calls", "custom_metadata", "get_session_config")
    STREAMING_MODE_FIELD_NUMBER: _ClassVar[int]
    MAX_LLM_CALLS_FIELD_NUMBER: _ClassVar[int]
    CUSTOM_METADATA_FIELD_NUMBER: _ClassVar[int]
    GET_SESSION_CONFIG_FIELD_NUMBER: _ClassVar[int]
    streaming_mode: StreamingMode
    max_llm_calls: int
    custom_metadata: _struct_pb2.Struct
    get_session_config: GetSessionConfig
    def __init__(self, streaming_mode: _Optional[_Union[StreamingMode, str]] = ..., max_llm_calls: _Optional[int] = ..., custom_metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., get_session_config: _Optional[_Union[GetSessionConfig, _Mapping]] = ...) -> None: ...

class GetSessionConfig(_message.Message):
    __slots__ = ("num_recent_events", "after_timestamp")
    NUM_RECENT_EVENTS_FIELD_NUMBER: _ClassVar[int]
    AFTER_TIMESTAMP_FIELD_NUMBER: _ClassVar[int]
    num_recent_events: int
    after_timestamp: float
    def __init__(self, num_recent_events: _Optional[int] = ..., after_timestamp: _Optional[float] = ...) -> None: ...

class RunRequest(_message.Message):
    __slots__ = ("app_name", "user_id", "session_id", "new_message", "state_delta", "invocation_id", "run_config", "streaming", "request_id")
    APP_NAME_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    NEW_MESSAGE_FIELD_NUMBER: _ClassVar[int]
    STATE_DELTA_FIELD_NUMBER: _ClassVar[int]
    INVOCATION_ID_FIELD_NUMBER: _ClassVar[int]
    RUN_CONFIG_FIELD_NUMBER: _ClassVar[int]
    STREAMING_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    app_name: str
    user_id: str
    session_id: str
    new_message: _content_pb2.Content
    state_delta: _struct_pb2.Struct
    invocation_id: str
    run_config: RunConfig
    streaming: bool
    request_id: str
    def __init__(self, app_name: _Optional[str] = ..., user_id: _Optional[str] = ..., session_id: _Optional[str] = ..., new_message: _Optional[_Union[_content_pb2.Content, _Mapping]] = ..., state_delta: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., invocation_id: _Optional[str] = ..., run_config: _Optional[_Union[RunConfig, _Mapping]] = ..., streaming: _Optional[bool] = ..., request_id: _Optional[str] = ...) -> None: ...

class RunResponse(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: _event_pb2.Event
    def __init__(self, event: _Optional[_Union[_event_pb2.Event, _Mapping]] = ...) -> None: ...

class ConnectRequest(_message.Message):
    __slots__ = ("start", "tool_result", "cancel", "callback_result", "code_result", "node_result", "run_node")
    START_FIELD_NUMBER: _ClassVar[int]
    TOOL_RESULT_FIELD_NUMBER: _ClassVar[int]
    CANCEL_FIELD_NUMBER: _ClassVar[int]
    CALLBACK_RESULT_FIELD_NUMBER: _ClassVar[int]
    CODE_RESULT_FIELD_NUMBER: _ClassVar[int]
    NODE_RESULT_FIELD_NUMBER: _ClassVar[int]
    RUN_NODE_FIELD_NUMBER: _ClassVar[int]
    start: StartRun
    tool_result: ToolResult
    cancel: CancelRun
    callback_result: CallbackResult
    code_result: CodeResult
    node_result: NodeResult
    run_node: RunNodeRequest
    def __init__(self, start: _Optional[_Union[StartRun, _Mapping]] = ..., tool_result: _Optional[_Union[ToolResult, _Mapping]] = ..., cancel: _Optional[_Union[CancelRun, _Mapping]] = ..., callback_result: _Optional[_Union[CallbackResult, _Mapping]] = ..., code_result: _Optional[_Union[CodeResult, _Mapping]] = ..., node_result: _Optional[_Union[NodeResult, _Mapping]] = ..., run_node: _Optional[_Union[RunNodeRequest, _Mapping]] = ...) -> None: ...

class StartRun(_message.Message):
    __slots__ = ("run", "tools", "callbacks", "code_executor", "nodes")
    RUN_FIELD_NUMBER: _ClassVar[int]
    TOOLS_FIELD_NUMBER: _ClassVar[int]
    CALLBACKS_FIELD_NUMBER: _ClassVar[int]
    CODE_EXECUTOR_FIELD_NUMBER: _ClassVar[int]
    NODES_FIELD_NUMBER: _ClassVar[int]
    run: RunRequest
    tools: _containers.RepeatedCompositeFieldContainer[ToolDeclaration]
    callbacks: _containers.RepeatedCompositeFieldContainer[CallbackDeclaration]
    code_executor: bool
    nodes: _containers.RepeatedCompositeFieldContainer[NodeDeclaration]
    def __init__(self, run: _Optional[_Union[RunRequest, _Mapping]] = ..., tools: _Optional[_Iterable[_Union[ToolDeclaration, _Mapping]]] = ..., callbacks: _Optional[_Iterable[_Union[CallbackDeclaration, _Mapping]]] = ..., code_executor: _Optional[bool] = ..., nodes: _Optional[_Iterable[_Union[NodeDeclaration, _Mapping]]] = ...) -> None: ...

class NodeDeclaration(_message.Message):
    __slots__ = ("name", "dynamic", "session_events")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DYNAMIC_FIELD_NUMBER: _ClassVar[int]
    SESSION_EVENTS_FIELD_NUMBER: _ClassVar[int]
    name: str
    dynamic: bool
    session_events: bool
    def __init__(self, name: _Optional[str] = ..., dynamic: _Optional[bool] = ..., session_events: _Optional[bool] = ...) -> None: ...

class NodeCall(_message.Message):
    __slots__ = ("call_id", "name", "invocation_id", "workflow", "node_name", "node_path", "node_input", "state", "attempt", "resume_inputs", "session_id", "session_events", "user_id")
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    INVOCATION_ID_FIELD_NUMBER: _ClassVar[int]
    WORKFLOW_FIELD_NUMBER: _ClassVar[int]
    NODE_NAME_FIELD_NUMBER: _ClassVar[int]
    NODE_PATH_FIELD_NUMBER: _ClassVar[int]
    NODE_INPUT_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    ATTEMPT_FIELD_NUMBER: _ClassVar[int]
    RESUME_INPUTS_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    SESSION_EVENTS_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    call_id: str
    name: str
    invocation_id: str
    workflow: str
    node_name: str
    node_path: str
    node_input: _struct_pb2.Value
    state: _struct_pb2.Struct
    attempt: int
    resume_inputs: _struct_pb2.Struct
    session_id: str
    session_events: _containers.RepeatedCompositeFieldContainer[_event_pb2.Event]
    user_id: str
    def __init__(self, call_id: _Optional[str] = ..., name: _Optional[str] = ..., invocation_id: _Optional[str] = ..., workflow: _Optional[str] = ..., node_name: _Optional[str] = ..., node_path: _Optional[str] = ..., node_input: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., state: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., attempt: _Optional[int] = ..., resume_inputs: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., session_id: _Optional[str] = ..., session_events: _Optional[_Iterable[_Union[_event_pb2.Event, _Mapping]]] = ..., user_id: _Optional[str] = ...) -> None: ...

class RunNodeRequest(_message.Message):
    __slots__ = ("call_id", "request_id", "function", "node", "node_input", "run_id", "use_as_output")
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    FUNCTION_FIELD_NUMBER: _ClassVar[int]
    NODE_FIELD_NUMBER: _ClassVar[int]
    NODE_INPUT_FIELD_NUMBER: _ClassVar[int]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    USE_AS_OUTPUT_FIELD_NUMBER: _ClassVar[int]
    call_id: str
    request_id: str
    function: str
    node: str
    node_input: _struct_pb2.Value
    run_id: str
    use_as_output: bool
    def __init__(self, call_id: _Optional[str] = ..., request_id: _Optional[str] = ..., function: _Optional[str] = ..., node: _Optional[str] = ..., node_input: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., run_id: _Optional[str] = ..., use_as_output: _Optional[bool] = ...) -> None: ...

class RunNodeResponse(_message.Message):
    __slots__ = ("call_id", "request_id", "node_path", "output", "error", "cause")
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    NODE_PATH_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    CAUSE_FIELD_NUMBER: _ClassVar[int]
    call_id: str
    request_id: str
    node_path: str
    output: _struct_pb2.Value
    error: NodeError
    cause: NodeError
    def __init__(self, call_id: _Optional[str] = ..., request_id: _Optional[str] = ..., node_path: _Optional[str] = ..., output: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., error: _Optional[_Union[NodeError, _Mapping]] = ..., cause: _Optional[_Union[NodeError, _Mapping]] = ...) -> None: ...

class NodeResult(_message.Message):
    __slots__ = ("call_id", "output", "state_delta", "route", "request_inputs", "error")
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_FIELD_NUMBER: _ClassVar[int]
    STATE_DELTA_FIELD_NUMBER: _ClassVar[int]
    ROUTE_FIELD_NUMBER: _ClassVar[int]
    REQUEST_INPUTS_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    call_id: str
    output: _struct_pb2.Value
    state_delta: _struct_pb2.Struct
    route: _struct_pb2.Value
    request_inputs: _containers.RepeatedCompositeFieldContainer[RequestInput]
    error: NodeError
    def __init__(self, call_id: _Optional[str] = ..., output: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., state_delta: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., route: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., request_inputs: _Optional[_Iterable[_Union[RequestInput, _Mapping]]] = ..., error: _Optional[_Union[NodeError, _Mapping]] = ...) -> None: ...

class RequestInput(_message.Message):
    __slots__ = ("interrupt_id", "message", "payload", "response_schema")
    INTERRUPT_ID_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    PAYLOAD_FIELD_NUMBER: _ClassVar[int]
    RESPONSE_SCHEMA_FIELD_NUMBER: _ClassVar[int]
    interrupt_id: str
    message: str
    payload: _struct_pb2.Value
    response_schema: _struct_pb2.Value
    def __init__(self, interrupt_id: _Optional[str] = ..., message: _Optional[str] = ..., payload: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., response_schema: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ...) -> None: ...

class NodeError(_message.Message):
    __slots__ = ("type", "message")
    TYPE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    type: str
    message: str
    def __init__(self, type: _Optional[str] = ..., message: _Optional[str] = ...) -> None: ...

class CallbackDeclaration(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class CallbackCall(_message.Message):
    __slots__ = ("call_id", "name", "kind", "invocation_id", "agent_name", "state", "llm_request", "llm_response", "tool_call", "tool_response", "error")
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    INVOCATION_ID_FIELD_NUMBER: _ClassVar[int]
    AGENT_NAME_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    LLM_REQUEST_FIELD_NUMBER: _ClassVar[int]
    LLM_RESPONSE_FIELD_NUMBER: _ClassVar[int]
    TOOL_CALL_FIELD_NUMBER: _ClassVar[int]
    TOOL_RESPONSE_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    call_id: str
    name: str
    kind: CallbackKind
    invocation_id: str
    agent_name: str
    state: _struct_pb2.Struct
    llm_request: _llm_pb2.LlmRequest
    llm_response: _llm_pb2.LlmResponse
    tool_call: _content_pb2.FunctionCall
    tool_response: _struct_pb2.Struct
    error: str
    def __init__(self, call_id: _Optional[str] = ..., name: _Optional[str] = ..., kind: _Optional[_Union[CallbackKind, str]] = ..., invocation_id: _Optional[str] = ..., agent_name: _Optional[str] = ..., state: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., llm_request: _Optional[_Union[_llm_pb2.LlmRequest, _Mapping]] = ..., llm_response: _Optional[_Union[_llm_pb2.LlmResponse, _Mapping]] = ..., tool_call: _Optional[_Union[_content_pb2.FunctionCall, _Mapping]] = ..., tool_response: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., error: _Optional[str] = ...) -> None: ...

class CallbackResult(_message.Message):
    __slots__ = ("call_id", "state_delta", "content", "llm_response", "llm_request", "tool_response", "error", "artifacts")
    class ArtifactsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: _content_pb2.Part
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[_content_pb2.Part, _Mapping]] = ...) -> None: ...
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    STATE_DELTA_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    LLM_RESPONSE_FIELD_NUMBER: _ClassVar[int]
    LLM_REQUEST_FIELD_NUMBER: _ClassVar[int]
    TOOL_RESPONSE_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    ARTIFACTS_FIELD_NUMBER: _ClassVar[int]
    call_id: str
    state_delta: _struct_pb2.Struct
    content: _content_pb2.Content
    llm_response: _llm_pb2.LlmResponse
    llm_request: _llm_pb2.LlmRequest
    tool_response: _struct_pb2.Struct
    error: str
    artifacts: _containers.MessageMap[str, _content_pb2.Part]
    def __init__(self, call_id: _Optional[str] = ..., state_delta: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., content: _Optional[_Union[_content_pb2.Content, _Mapping]] = ..., llm_response: _Optional[_Union[_llm_pb2.LlmResponse, _Mapping]] = ..., llm_request: _Optional[_Union[_llm_pb2.LlmRequest, _Mapping]] = ..., tool_response: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., error: _Optional[str] = ..., artifacts: _Optional[_Mapping[str, _content_pb2.Part]] = ...) -> None: ...

class ToolDeclaration(_message.Message):
    __slots__ = ("name", "description", "parameters", "response", "long_running", "require_confirmation")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    PARAMETERS_FIELD_NUMBER: _ClassVar[int]
    RESPONSE_FIELD_NUMBER: _ClassVar[int]
    LONG_RUNNING_FIELD_NUMBER: _ClassVar[int]
    REQUIRE_CONFIRMATION_FIELD_NUMBER: _ClassVar[int]
    name: str
    description: str
    parameters: _struct_pb2.Struct
    response: _struct_pb2.Struct
    long_running: bool
    require_confirmation: bool
    def __init__(self, name: _Optional[str] = ..., description: _Optional[str] = ..., parameters: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., response: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., long_running: _Optional[bool] = ..., require_confirmation: _Optional[bool] = ...) -> None: ...

class ToolResult(_message.Message):
    __slots__ = ("call_id", "response", "error", "actions", "artifacts")
    class ArtifactsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: _content_pb2.Part
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[_content_pb2.Part, _Mapping]] = ...) -> None: ...
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    RESPONSE_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    ARTIFACTS_FIELD_NUMBER: _ClassVar[int]
    call_id: str
    response: _struct_pb2.Value
    error: str
    actions: _event_pb2.EventActions
    artifacts: _containers.MessageMap[str, _content_pb2.Part]
    def __init__(self, call_id: _Optional[str] = ..., response: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., error: _Optional[str] = ..., actions: _Optional[_Union[_event_pb2.EventActions, _Mapping]] = ..., artifacts: _Optional[_Mapping[str, _content_pb2.Part]] = ...) -> None: ...

class CancelRun(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ConnectResponse(_message.Message):
    __slots__ = ("event", "tool_call", "done", "callback_call", "code_execution", "node_call", "run_node_result")
    EVENT_FIELD_NUMBER: _ClassVar[int]
    TOOL_CALL_FIELD_NUMBER: _ClassVar[int]
    DONE_FIELD_NUMBER: _ClassVar[int]
    CALLBACK_CALL_FIELD_NUMBER: _ClassVar[int]
    CODE_EXECUTION_FIELD_NUMBER: _ClassVar[int]
    NODE_CALL_FIELD_NUMBER: _ClassVar[int]
    RUN_NODE_RESULT_FIELD_NUMBER: _ClassVar[int]
    event: _event_pb2.Event
    tool_call: ToolCall
    done: RunDone
    callback_call: CallbackCall
    code_execution: CodeExecutionCall
    node_call: NodeCall
    run_node_result: RunNodeResponse
    def __init__(self, event: _Optional[_Union[_event_pb2.Event, _Mapping]] = ..., tool_call: _Optional[_Union[ToolCall, _Mapping]] = ..., done: _Optional[_Union[RunDone, _Mapping]] = ..., callback_call: _Optional[_Union[CallbackCall, _Mapping]] = ..., code_execution: _Optional[_Union[CodeExecutionCall, _Mapping]] = ..., node_call: _Optional[_Union[NodeCall, _Mapping]] = ..., run_node_result: _Optional[_Union[RunNodeResponse, _Mapping]] = ...) -> None: ...

class CodeExecutionCall(_message.Message):
    __slots__ = ("call_id", "invocation_id", "agent_name", "language", "code", "input_files", "execution_id")
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    INVOCATION_ID_FIELD_NUMBER: _ClassVar[int]
    AGENT_NAME_FIELD_NUMBER: _ClassVar[int]
    LANGUAGE_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    INPUT_FILES_FIELD_NUMBER: _ClassVar[int]
    EXECUTION_ID_FIELD_NUMBER: _ClassVar[int]
    call_id: str
    invocation_id: str
    agent_name: str
    language: str
    code: str
    input_files: _containers.RepeatedCompositeFieldContainer[File]
    execution_id: str
    def __init__(self, call_id: _Optional[str] = ..., invocation_id: _Optional[str] = ..., agent_name: _Optional[str] = ..., language: _Optional[str] = ..., code: _Optional[str] = ..., input_files: _Optional[_Iterable[_Union[File, _Mapping]]] = ..., execution_id: _Optional[str] = ...) -> None: ...

class File(_message.Message):
    __slots__ = ("name", "mime_type", "content")
    NAME_FIELD_NUMBER: _ClassVar[int]
    MIME_TYPE_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    name: str
    mime_type: str
    content: bytes
    def __init__(self, name: _Optional[str] = ..., mime_type: _Optional[str] = ..., content: _Optional[bytes] = ...) -> None: ...

class CodeResult(_message.Message):
    __slots__ = ("call_id", "stdout", "stderr", "output_files")
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    STDOUT_FIELD_NUMBER: _ClassVar[int]
    STDERR_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_FILES_FIELD_NUMBER: _ClassVar[int]
    call_id: str
    stdout: str
    stderr: str
    output_files: _containers.RepeatedCompositeFieldContainer[File]
    def __init__(self, call_id: _Optional[str] = ..., stdout: _Optional[str] = ..., stderr: _Optional[str] = ..., output_files: _Optional[_Iterable[_Union[File, _Mapping]]] = ...) -> None: ...

class ToolCall(_message.Message):
    __slots__ = ("call_id", "invocation_id", "agent_name", "function_call", "state", "confirmation", "auth_response")
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    INVOCATION_ID_FIELD_NUMBER: _ClassVar[int]
    AGENT_NAME_FIELD_NUMBER: _ClassVar[int]
    FUNCTION_CALL_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    CONFIRMATION_FIELD_NUMBER: _ClassVar[int]
    AUTH_RESPONSE_FIELD_NUMBER: _ClassVar[int]
    call_id: str
    invocation_id: str
    agent_name: str
    function_call: _content_pb2.FunctionCall
    state: _struct_pb2.Struct
    confirmation: _event_pb2.ToolConfirmation
    auth_response: _struct_pb2.Struct
    def __init__(self, call_id: _Optional[str] = ..., invocation_id: _Optional[str] = ..., agent_name: _Optional[str] = ..., function_call: _Optional[_Union[_content_pb2.FunctionCall, _Mapping]] = ..., state: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., confirmation: _Optional[_Union[_event_pb2.ToolConfirmation, _Mapping]] = ..., auth_response: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class RunDone(_message.Message):
    __slots__ = ("invocation_id",)
    INVOCATION_ID_FIELD_NUMBER: _ClassVar[int]
    invocation_id: str
    def __init__(self, invocation_id: _Optional[str] = ...) -> None: ...
