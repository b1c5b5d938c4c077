from agentsvc.v1 import content_pb2 as _content_pb2
from agentsvc.v1 import event_pb2 as _event_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class LlmRequest(_message.Message):
    __slots__ = ("model", "contents", "config", "previous_interaction_id", "cache_config", "cache_metadata", "cacheable_contents_token_count")
    MODEL_FIELD_NUMBER: _ClassVar[int]
    CONTENTS_FIELD_NUMBER: _ClassVar[int]
    CONFIG_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_INTERACTION_ID_FIELD_NUMBER: _ClassVar[int]
    CACHE_CONFIG_FIELD_NUMBER: _ClassVar[int]
    CACHE_METADATA_FIELD_NUMBER: _ClassVar[int]
    CACHEABLE_CONTENTS_TOKEN_COUNT_FIELD_NUMBER: _ClassVar[int]
    model: str
    contents: _containers.RepeatedCompositeFieldContainer[_content_pb2.Content]
    config: GenerateContentConfig
    previous_interaction_id: str
    cache_config: ContextCacheConfig
    cache_metadata: _event_pb2.CacheMetadata
    cacheable_contents_token_count: int
    def __init__(self, model: _Optional[str] = ..., contents: _Optional[_Iterable[_Union[_content_pb2.Content, _Mapping]]] = ..., config: _Optional[_Union[GenerateContentConfig, _Mapping]] = ..., previous_interaction_id: _Optional[str] = ..., cache_config: _Optional[_Union[ContextCacheConfig, _Mapping]] = ..., cache_metadata: _Optional[_Union[_event_pb2.CacheMetadata, _Mapping]] = ..., cacheable_contents_token_count: _Optional[int] = ...) -> None: ...

class ContextCacheConfig(_message.Message):
    __slots__ = ("cache_intervals", "ttl_seconds", "min_tokens")
    CACHE_INTERVALS_FIELD_NUMBER: _ClassVar[int]
    TTL_SECONDS_FIELD_NUMBER: _ClassVar[int]
    MIN_TOKENS_FIELD_NUMBER: _ClassVar[int]
    cache_intervals: int
    ttl_seconds: int
    min_tokens: int
    def __init__(self, cache_intervals: _Optional[int] = ..., ttl_seconds: _Optional[int] = ..., min_tokens: _Optional[int] = ...) -> None: ...

class GenerateContentConfig(_message.Message):
    __slots__ = ("system_instruction", "tools", "tool_config", "response_schema", "response_mime_type", "temperature", "top_p", "top_k", "candidate_count", "max_output_tokens", "stop_sequences", "presence_penalty", "frequency_penalty", "seed", "response_logprobs", "logprobs", "safety_settings", "thinking_config", "labels", "cached_content", "response_modalities")
    class LabelsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    SYSTEM_INSTRUCTION_FIELD_NUMBER: _ClassVar[int]
    TOOLS_FIELD_NUMBER: _ClassVar[int]
    TOOL_CONFIG_FIELD_NUMBER: _ClassVar[int]
    RESPONSE_SCHEMA_FIELD_NUMBER: _ClassVar[int]
    RESPONSE_MIME_TYPE_FIELD_NUMBER: _ClassVar[int]
    TEMPERATURE_FIELD_NUMBER: _ClassVar[int]
    TOP_P_FIELD_NUMBER: _ClassVar[int]
    TOP_K_FIELD_NUMBER: _ClassVar[int]
    CANDIDATE_COUNT_FIELD_NUMBER: _ClassVar[int]
    MAX_OUTPUT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    STOP_SEQUENCES_FIELD_NUMBER: _ClassVar[int]
    PRESENCE_PENALTY_FIELD_NUMBER: _ClassVar[int]
    FREQUENCY_PENALTY_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    RESPONSE_LOGPROBS_FIELD_NUMBER: _ClassVar[int]
    LOGPROBS_FIELD_NUMBER: _ClassVar[int]
    SAFETY_SETTINGS_FIELD_NUMBER: _ClassVar[int]
    THINKING_CONFIG_FIELD_NUMBER: _ClassVar[int]
    LABELS_FIELD_NUMBER: _ClassVar[int]
    CACHED_CONTENT_FIELD_NUMBER: _ClassVar[int]
    RESPONSE_MODALITIES_FIELD_NUMBER: _ClassVar[int]
    system_instruction: str
    tools: _containers.RepeatedCompositeFieldContainer[Tool]
    tool_config: ToolConfig
    response_schema: _struct_pb2.Struct
    response_mime_type: str
    temperature: float
    top_p: float
    top_k: float
    candidate_count: int
    max_output_tokens: int
    stop_sequences: _containers.RepeatedScalarFieldContainer[str]
    presence_penalty: float
    frequency_penalty: float
    seed: int
    response_logprobs: bool
    logprobs: int
    safety_settings: _containers.RepeatedCompositeFieldContainer[SafetySetting]
    thinking_config: ThinkingConfig
    labels: _containers.ScalarMap[str, str]
    cached_content: str
    response_modalities: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, system_instruction: _Optional[str] = ..., tools: _Optional[_Iterable[_Union[Tool, _Mapping]]] = ..., tool_config: _Optional[_Union[ToolConfig, _Mapping]] = ..., response_schema: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., response_mime_type: _Optional[str] = ..., temperature: _Optional[float] = ..., top_p: _Optional[float] = ..., top_k: _Optional[float] = ..., candidate_count: _Optional[int] = ..., max_output_tokens: _Optional[int] = ..., stop_sequences: _Optional[_Iterable[str]] = ..., presence_penalty: _Optional[float] = ..., frequency_penalty: _Optional[float] = ..., seed: _Optional[int] = ..., response_logprobs: _Optional[bool] = ..., logprobs: _Optional[int] = ..., safety_settings: _Optional[_Iterable[_Union[SafetySetting, _Mapping]]] = ..., thinking_config: _Optional[_Union[ThinkingConfig, _Mapping]] = ..., labels: _Optional[_Mapping[str, str]] = ..., cached_content: _Optional[str] = ..., response_modalities: _Optional[_Iterable[str]] = ...) -> None: ...

class Tool(_message.Message):
    __slots__ = ("function_declarations", "google_search", "code_execution", "url_context", "enterprise_web_search", "google_search_retrieval", "google_maps")
    FUNCTION_DECLARATIONS_FIELD_NUMBER: _ClassVar[int]
    GOOGLE_SEARCH_FIELD_NUMBER: _ClassVar[int]
    CODE_EXECUTION_FIELD_NUMBER: _ClassVar[int]
    URL_CONTEXT_FIELD_NUMBER: _ClassVar[int]
    ENTERPRISE_WEB_SEARCH_FIELD_NUMBER: _ClassVar[int]
    GOOGLE_SEARCH_RETRIEVAL_FIELD_NUMBER: _ClassVar[int]
    GOOGLE_MAPS_FIELD_NUMBER: _ClassVar[int]
    function_declarations: _containers.RepeatedCompositeFieldContainer[FunctionDeclaration]
    google_search: _struct_pb2.Struct
    code_execution: _struct_pb2.Struct
    url_context: _struct_pb2.Struct
    enterprise_web_search: _struct_pb2.Struct
    google_search_retrieval: _struct_pb2.Struct
    google_maps: _struct_pb2.Struct
    def __init__(self, function_declarations: _Optional[_Iterable[_Union[FunctionDeclaration, _Mapping]]] = ..., google_search: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., code_execution: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., url_context: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., enterprise_web_search: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., google_search_retrieval: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., google_maps: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class FunctionDeclaration(_message.Message):
    __slots__ = ("name", "description", "parameters", "response", "parameters_json_schema")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    PARAMETERS_FIELD_NUMBER: _ClassVar[int]
    RESPONSE_FIELD_NUMBER: _ClassVar[int]
    PARAMETERS_JSON_SCHEMA_FIELD_NUMBER: _ClassVar[int]
    name: str
    description: str
    parameters: _struct_pb2.Struct
    response: _struct_pb2.Struct
    parameters_json_schema: _struct_pb2.Value
    def __init__(self, name: _Optional[str] = ..., description: _Optional[str] = ..., parameters: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., response: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., parameters_json_schema: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ...) -> None: ...

class ToolConfig(_message.Message):
    __slots__ = ("function_calling_config",)
    FUNCTION_CALLING_CONFIG_FIELD_NUMBER: _ClassVar[int]
    function_calling_config: FunctionCallingConfig
    def __init__(self, function_calling_config: _Optional[_Union[FunctionCallingConfig, _Mapping]] = ...) -> None: ...

class FunctionCallingConfig(_message.Message):
    __slots__ = ("mode", "allowed_function_names")
    MODE_FIELD_NUMBER: _ClassVar[int]
    ALLOWED_FUNCTION_NAMES_FIELD_NUMBER: _ClassVar[int]
    mode: str
    allowed_function_names: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, mode: _Optional[str] = ..., allowed_function_names: _Optional[_Iterable[str]] = ...) -> None: ...

class SafetySetting(_message.Message):
    __slots__ = ("category", "threshold", "method")
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    THRESHOLD_FIELD_NUMBER: _ClassVar[int]
    METHOD_FIELD_NUMBER: _ClassVar[int]
    category: str
    threshold: str
    method: str
    def __init__(self, category: _Optional[str] = ..., threshold: _Optional[str] = ..., method: _Optional[str] = ...) -> None: ...

class ThinkingConfig(_message.Message):
    __slots__ = ("include_thoughts", "thinking_budget", "thinking_level")
    INCLUDE_THOUGHTS_FIELD_NUMBER: _ClassVar[int]
    THINKING_BUDGET_FIELD_NUMBER: _ClassVar[int]
    THINKING_LEVEL_FIELD_NUMBER: _ClassVar[int]
    include_thoughts: bool
    thinking_budget: int
    thinking_level: str
    def __init__(self, include_thoughts: _Optional[bool] = ..., thinking_budget: _Optional[int] = ..., thinking_level: _Optional[str] = ...) -> None: ...

class LlmResponse(_message.Message):
    __slots__ = ("content", "partial", "turn_complete", "finish_reason", "error_code", "error_message", "interrupted", "custom_metadata", "usage_metadata", "grounding_metadata", "model_version", "avg_logprobs", "citation_metadata", "interaction_id", "input_transcription", "output_transcription", "cache_metadata")
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
    content: _content_pb2.Content
    partial: bool
    turn_complete: bool
    finish_reason: str
    error_code: str
    error_message: str
    interrupted: bool
    custom_metadata: _struct_pb2.Struct
    usage_metadata: _event_pb2.UsageMetadata
    grounding_metadata: _struct_pb2.Struct
    model_version: str
    avg_logprobs: float
    citation_metadata: _struct_pb2.Struct
    interaction_id: str
    input_transcription: _event_pb2.Transcription
    output_transcription: _event_pb2.Transcription
    cache_metadata: _event_pb2.CacheMetadata
    def __init__(self, content: _Optional[_Union[_content_pb2.Content, _Mapping]] = ..., partial: _Optional[bool] = ..., turn_complete: _Optional[bool] = ..., finish_reason: _Optional[str] = ..., error_code: _Optional[str] = ..., error_message: _Optional[str] = ..., interrupted: _Optional[bool] = ..., custom_metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., usage_metadata: _Optional[_Union[_event_pb2.UsageMetadata, _Mapping]] = ..., grounding_metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., model_version: _Optional[str] = ..., avg_logprobs: _Optional[float] = ..., citation_metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., interaction_id: _Optional[str] = ..., input_transcription: _Optional[_Union[_event_pb2.Transcription, _Mapping]] = ..., output_transcription: _Optional[_Union[_event_pb2.Transcription, _Mapping]] = ..., cache_metadata: _Optional[_Union[_event_pb2.CacheMetadata, _Mapping]] = ...) -> None: ...
