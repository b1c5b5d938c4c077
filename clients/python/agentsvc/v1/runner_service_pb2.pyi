from agentsvc.v1 import content_pb2 as _content_pb2
from agentsvc.v1 import event_pb2 as _event_pb2
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
STREAMING_MODE_UNSPECIFIED: StreamingMode
STREAMING_MODE_NONE: StreamingMode
STREAMING_MODE_SSE: StreamingMode

class RunConfig(_message.Message):
    __slots__ = ("streaming_mode", "max_llm_calls", "custom_metadata")
    STREAMING_MODE_FIELD_NUMBER: _ClassVar[int]
    MAX_LLM_CALLS_FIELD_NUMBER: _ClassVar[int]
    CUSTOM_METADATA_FIELD_NUMBER: _ClassVar[int]
    streaming_mode: StreamingMode
    max_llm_calls: int
    custom_metadata: _struct_pb2.Struct
    def __init__(self, streaming_mode: _Optional[_Union[StreamingMode, str]] = ..., max_llm_calls: _Optional[int] = ..., custom_metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

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
    __slots__ = ("start", "tool_result", "cancel")
    START_FIELD_NUMBER: _ClassVar[int]
    TOOL_RESULT_FIELD_NUMBER: _ClassVar[int]
    CANCEL_FIELD_NUMBER: _ClassVar[int]
    start: StartRun
    tool_result: ToolResult
    cancel: CancelRun
    def __init__(self, start: _Optional[_Union[StartRun, _Mapping]] = ..., tool_result: _Optional[_Union[ToolResult, _Mapping]] = ..., cancel: _Optional[_Union[CancelRun, _Mapping]] = ...) -> None: ...

class StartRun(_message.Message):
    __slots__ = ("run", "tools")
    RUN_FIELD_NUMBER: _ClassVar[int]
    TOOLS_FIELD_NUMBER: _ClassVar[int]
    run: RunRequest
    tools: _containers.RepeatedCompositeFieldContainer[ToolDeclaration]
    def __init__(self, run: _Optional[_Union[RunRequest, _Mapping]] = ..., tools: _Optional[_Iterable[_Union[ToolDeclaration, _Mapping]]] = ...) -> None: ...

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
    __slots__ = ("call_id", "response", "error", "actions")
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    RESPONSE_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    call_id: str
    response: _struct_pb2.Value
    error: str
    actions: _event_pb2.EventActions
    def __init__(self, call_id: _Optional[str] = ..., response: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., error: _Optional[str] = ..., actions: _Optional[_Union[_event_pb2.EventActions, _Mapping]] = ...) -> None: ...

class CancelRun(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ConnectResponse(_message.Message):
    __slots__ = ("event", "tool_call", "done")
    EVENT_FIELD_NUMBER: _ClassVar[int]
    TOOL_CALL_FIELD_NUMBER: _ClassVar[int]
    DONE_FIELD_NUMBER: _ClassVar[int]
    event: _event_pb2.Event
    tool_call: ToolCall
    done: RunDone
    def __init__(self, event: _Optional[_Union[_event_pb2.Event, _Mapping]] = ..., tool_call: _Optional[_Union[ToolCall, _Mapping]] = ..., done: _Optional[_Union[RunDone, _Mapping]] = ...) -> None: ...

class ToolCall(_message.Message):
    __slots__ = ("call_id", "invocation_id", "agent_name", "function_call", "state")
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    INVOCATION_ID_FIELD_NUMBER: _ClassVar[int]
    AGENT_NAME_FIELD_NUMBER: _ClassVar[int]
    FUNCTION_CALL_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    call_id: str
    invocation_id: str
    agent_name: str
    function_call: _content_pb2.FunctionCall
    state: _struct_pb2.Struct
    def __init__(self, call_id: _Optional[str] = ..., invocation_id: _Optional[str] = ..., agent_name: _Optional[str] = ..., function_call: _Optional[_Union[_content_pb2.FunctionCall, _Mapping]] = ..., state: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class RunDone(_message.Message):
    __slots__ = ("invocation_id",)
    INVOCATION_ID_FIELD_NUMBER: _ClassVar[int]
    invocation_id: str
    def __init__(self, invocation_id: _Optional[str] = ...) -> None: ...
