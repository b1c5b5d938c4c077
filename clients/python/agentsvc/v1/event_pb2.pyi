from agentsvc.v1 import content_pb2 as _content_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Event(_message.Message):
    __slots__ = ("content", "partial", "turn_complete", "finish_reason", "error_code", "error_message", "interrupted", "custom_metadata", "usage_metadata", "grounding_metadata", "model_version", "avg_logprobs", "citation_metadata", "interaction_id", "input_transcription", "output_transcription", "cache_metadata", "invocation_id", "author", "actions", "long_running_tool_ids", "branch", "id", "timestamp", "request_id", "node_info", "output", "isolation_scope")
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    PARTIAL_FIELD_NUMBER: _ClassVar[int]
    TURN_COMPLETE_FIELD_NUMBER: _ClassVar[int]
    FINISH_REASON_FIELD_NUMBER: _ClassVar[int]
    ERROR_CODE_FIELD_NUMBER: _ClassVar[int]
    ERROR_MESSAGE_FIELD_NUMBER: _ClassVar[int]
    INTERRUPTED_FIELD_NUMBER: _ClassVar[int]
    CUSTOM_METADATA_FIELD_NUMBER: _ClassVar[int]
    USAGE_METADATA_FIELD_NUMBER: _ClassVar[int]
    GROUNDING_METADATA_FIELD_NUMBER: _ClassVar[int]
    MODEL_VERSION_FIELD_NUMBER: _ClassVar[int]
    AVG_LOGPROBS_FIELD_NUMBER: _ClassVar[int]
    CITATION_METADATA_FIELD_NUMBER: _ClassVar[int]
    INTERACTION_ID_FIELD_NUMBER: _ClassVar[int]
    INPUT_TRANSCRIPTION_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_TRANSCRIPTION_FIELD_NUMBER: _ClassVar[int]
    CACHE_METADATA_FIELD_NUMBER: _ClassVar[int]
    INVOCATION_ID_FIELD_NUMBER: _ClassVar[int]
    AUTHOR_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    LONG_RUNNING_TOOL_IDS_FIELD_NUMBER: _ClassVar[int]
    BRANCH_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    TIMESTAMP_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    NODE_INFO_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_FIELD_NUMBER: _ClassVar[int]
    ISOLATION_SCOPE_FIELD_NUMBER: _ClassVar[int]
    content: _content_pb2.Content
    partial: bool
    turn_complete: bool
    finish_reason: str
    error_code: str
    error_message: str
    interrupted: bool
    custom_metadata: _struct_pb2.Struct
    usage_metadata: UsageMetadata
    grounding_metadata: _struct_pb2.Struct
    model_version: str
    avg_logprobs: float
    citation_metadata: _struct_pb2.Struct
    interaction_id: str
    input_transcription: Transcription
    output_transcription: Transcription
    cache_metadata: CacheMetadata
    invocation_id: str
    author: str
    actions: EventActions
    long_running_tool_ids: _containers.RepeatedScalarFieldContainer[str]
    branch: str
    id: str
    timestamp: float
    request_id: str
    node_info: NodeInfo
    output: _struct_pb2.Value
    isolation_scope: str
    def __init__(self, content: _Optional[_Union[_content_pb2.Content, _Mapping]] = ..., partial: _Optional[bool] = ..., turn_complete: _Optional[bool] = ..., finish_reason: _Optional[str] = ..., error_code: _Optional[str] = ..., error_message: _Optional[str] = ..., interrupted: _Optional[bool] = ..., custom_metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., usage_metadata: _Optional[_Union[UsageMetadata, _Mapping]] = ..., grounding_metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., model_version: _Optional[str] = ..., avg_logprobs: _Optional[float] = ..., citation_metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., interaction_id: _Optional[str] = ..., input_transcription: _Optional[_Union[Transcription, _Mapping]] = ..., output_transcription: _Optional[_Union[Transcription, _Mapping]] = ..., cache_metadata: _Optional[_Union[CacheMetadata, _Mapping]] = ..., invocation_id: _Optional[str] = ..., author: _Optional[str] = ..., actions: _Optional[_Union[EventActions, _Mapping]] = ..., long_running_tool_ids: _Optional[_Iterable[str]] = ..., branch: _Optional[str] = ..., id: _Optional[str] = ..., timestamp: _Optional[float] = ..., request_id: _Optional[str] = ..., node_info: _Optional[_Union[NodeInfo, _Mapping]] = ..., output: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., isolation_scope: _Optional[str] = ...) -> None: ...

class NodeInfo(_message.Message):
    __slots__ = ("path", "output_for", "message_as_output")
    PATH_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_FOR_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_AS_OUTPUT_FIELD_NUMBER: _ClassVar[int]
    path: str
    output_for: _containers.RepeatedScalarFieldContainer[str]
    message_as_output: bool
    def __init__(self, path: _Optional[str] = ..., output_for: _Optional[_Iterable[str]] = ..., message_as_output: _Optional[bool] = ...) -> None: ...

class EventActions(_message.Message):
    __slots__ = ("skip_summarization", "state_delta", "artifact_delta", "transfer_to_agent", "escalate", "requested_auth_configs", "requested_tool_confirmations", "compaction", "end_of_agent", "agent_state", "rewind_before_invocation_id", "route")
    class ArtifactDeltaEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    class RequestedAuthConfigsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: _struct_pb2.Struct
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...
    class RequestedToolConfirmationsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: ToolConfirmation
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[ToolConfirmation, _Mapping]] = ...) -> None: ...
    SKIP_SUMMARIZATION_FIELD_NUMBER: _ClassVar[int]
    STATE_DELTA_FIELD_NUMBER: _ClassVar[int]
    ARTIFACT_DELTA_FIELD_NUMBER: _ClassVar[int]
    TRANSFER_TO_AGENT_FIELD_NUMBER: _ClassVar[int]
    ESCALATE_FIELD_NUMBER: _ClassVar[int]
    REQUESTED_AUTH_CONFIGS_FIELD_NUMBER: _ClassVar[int]
    REQUESTED_TOOL_CONFIRMATIONS_FIELD_NUMBER: _ClassVar[int]
    COMPACTION_FIELD_NUMBER: _ClassVar[int]
    END_OF_AGENT_FIELD_NUMBER: _ClassVar[int]
    AGENT_STATE_FIELD_NUMBER: _ClassVar[int]
    REWIND_BEFORE_INVOCATION_ID_FIELD_NUMBER: _ClassVar[int]
    ROUTE_FIELD_NUMBER: _ClassVar[int]
    skip_summarization: bool
    state_delta: _struct_pb2.Struct
    artifact_delta: _containers.ScalarMap[str, int]
    transfer_to_agent: str
    escalate: bool
    requested_auth_configs: _containers.MessageMap[str, _struct_pb2.Struct]
    requested_tool_confirmations: _containers.MessageMap[str, ToolConfirmation]
    compaction: EventCompaction
    end_of_agent: bool
    agent_state: _struct_pb2.Struct
    rewind_before_invocation_id: str
    route: _struct_pb2.Value
    def __init__(self, skip_summarization: _Optional[bool] = ..., state_delta: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., artifact_delta: _Optional[_Mapping[str, int]] = ..., transfer_to_agent: _Optional[str] = ..., escalate: _Optional[bool] = ..., requested_auth_configs: _Optional[_Mapping[str, _struct_pb2.Struct]] = ..., requested_tool_confirmations: _Optional[_Mapping[str, ToolConfirmation]] = ..., compaction: _Optional[_Union[EventCompaction, _Mapping]] = ..., end_of_agent: _Optional[bool] = ..., agent_state: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., rewind_before_invocation_id: _Optional[str] = ..., route: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ...) -> None: ...

class ToolConfirmation(_message.Message):
    __slots__ = ("hint", "confirmed", "payload")
    HINT_FIELD_NUMBER: _ClassVar[int]
    CONFIRMED_FIELD_NUMBER: _ClassVar[int]
    PAYLOAD_FIELD_NUMBER: _ClassVar[int]
    hint: str
    confirmed: bool
    payload: _struct_pb2.Struct
    def __init__(self, hint: _Optional[str] = ..., confirmed: _Optional[bool] = ..., payload: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class EventCompaction(_message.Message):
    __slots__ = ("start_timestamp", "end_timestamp", "compacted_content")
    START_TIMESTAMP_FIELD_NUMBER: _ClassVar[int]
    END_TIMESTAMP_FIELD_NUMBER: _ClassVar[int]
    COMPACTED_CONTENT_FIELD_NUMBER: _ClassVar[int]
    start_timestamp: float
    end_timestamp: float
    compacted_content: _content_pb2.Content
    def __init__(self, start_timestamp: _Optional[float] = ..., end_timestamp: _Optional[float] = ..., compacted_content: _Optional[_Union[_content_pb2.Content, _Mapping]] = ...) -> None: ...

class UsageMetadata(_message.Message):
    __slots__ = ("prompt_token_count", "candidates_token_count", "total_token_count", "thoughts_token_count", "cached_content_token_count", "tool_use_prompt_token_count")
    PROMPT_TOKEN_COUNT_FIELD_NUMBER: _ClassVar[int]
    CANDIDATES_TOKEN_COUNT_FIELD_NUMBER: _ClassVar[int]
    TOTAL_TOKEN_COUNT_FIELD_NUMBER: _ClassVar[int]
    THOUGHTS_TOKEN_COUNT_FIELD_NUMBER: _ClassVar[int]
    CACHED_CONTENT_TOKEN_COUNT_FIELD_NUMBER: _ClassVar[int]
    TOOL_USE_PROMPT_TOKEN_COUNT_FIELD_NUMBER: _ClassVar[int]
    prompt_token_count: int
    candidates_token_count: int
    total_token_count: int
    thoughts_token_count: int
    cached_content_token_count: int
    tool_use_prompt_token_count: int
    def __init__(self, prompt_token_count: _Optional[int] = ..., candidates_token_count: _Optional[int] = ..., total_token_count: _Optional[int] = ..., thoughts_token_count: _Optional[int] = ..., cached_content_token_count: _Optional[int] = ..., tool_use_prompt_token_count: _Optional[int] = ...) -> None: ...

class Transcription(_message.Message):
    __slots__ = ("text", "finished")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    text: str
    finished: bool
    def __init__(self, text: _Optional[str] = ..., finished: _Optional[bool] = ...) -> None: ...

class CacheMetadata(_message.Message):
    __slots__ = ("cache_name", "expire_time", "fingerprint", "invocations_used", "contents_count", "created_at")
    CACHE_NAME_FIELD_NUMBER: _ClassVar[int]
    EXPIRE_TIME_FIELD_NUMBER: _ClassVar[int]
    FINGERPRINT_FIELD_NUMBER: _ClassVar[int]
    INVOCATIONS_USED_FIELD_NUMBER: _ClassVar[int]
    CONTENTS_COUNT_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    cache_name: str
    expire_time: float
    fingerprint: str
    invocations_used: int
    contents_count: int
    created_at: float
    def __init__(self, cache_name: _Optional[str] = ..., expire_time: _Optional[float] = ..., fingerprint: _Optional[str] = ..., invocations_used: _Optional[int] = ..., contents_count: _Optional[int] = ..., created_at: _Optional[float] = ...) -> None: ...
