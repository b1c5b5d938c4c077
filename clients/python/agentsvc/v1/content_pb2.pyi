from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Content(_message.Message):
    __slots__ = ("role", "parts")
    ROLE_FIELD_NUMBER: _ClassVar[int]
    PARTS_FIELD_NUMBER: _ClassVar[int]
    role: str
    parts: _containers.RepeatedCompositeFieldContainer[Part]
    def __init__(self, role: _Optional[str] = ..., parts: _Optional[_Iterable[_Union[Part, _Mapping]]] = ...) -> None: ...

class Part(_message.Message):
    __slots__ = ("text", "thought", "thought_signature", "inline_data", "file_data", "function_call", "function_response", "executable_code", "code_execution_result", "part_metadata")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    THOUGHT_FIELD_NUMBER: _ClassVar[int]
    THOUGHT_SIGNATURE_FIELD_NUMBER: _ClassVar[int]
    INLINE_DATA_FIELD_NUMBER: _ClassVar[int]
    FILE_DATA_FIELD_NUMBER: _ClassVar[int]
    FUNCTION_CALL_FIELD_NUMBER: _ClassVar[int]
    FUNCTION_RESPONSE_FIELD_NUMBER: _ClassVar[int]
    EXECUTABLE_CODE_FIELD_NUMBER: _ClassVar[int]
    CODE_EXECUTION_RESULT_FIELD_NUMBER: _ClassVar[int]
    PART_METADATA_FIELD_NUMBER: _ClassVar[int]
    text: str
    thought: bool
    thought_signature: bytes
    inline_data: Blob
    file_data: FileData
    function_call: FunctionCall
    function_response: FunctionResponse
    executable_code: ExecutableCode
    code_execution_result: CodeExecutionResult
    part_metadata: _struct_pb2.Struct
    def __init__(self, text: _Optional[str] = ..., thought: _Optional[bool] = ..., thought_signature: _Optional[bytes] = ..., inline_data: _Optional[_Union[Blob, _Mapping]] = ..., file_data: _Optional[_Union[FileData, _Mapping]] = ..., function_call: _Optional[_Union[FunctionCall, _Mapping]] = ..., function_response: _Optional[_Union[FunctionResponse, _Mapping]] = ..., executable_code: _Optional[_Union[ExecutableCode, _Mapping]] = ..., code_execution_result: _Optional[_Union[CodeExecutionResult, _Mapping]] = ..., part_metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class Blob(_message.Message):
    __slots__ = ("mime_type", "data", "display_name")
    MIME_TYPE_FIELD_NUMBER: _ClassVar[int]
    DATA_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    mime_type: str
    data: bytes
    display_name: str
    def __init__(self, mime_type: _Optional[str] = ..., data: _Optional[bytes] = ..., display_name: _Optional[str] = ...) -> None: ...

class FileData(_message.Message):
    __slots__ = ("mime_type", "file_uri", "display_name")
    MIME_TYPE_FIELD_NUMBER: _ClassVar[int]
    FILE_URI_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    mime_type: str
    file_uri: str
    display_name: str
    def __init__(self, mime_type: _Optional[str] = ..., file_uri: _Optional[str] = ..., display_name: _Optional[str] = ...) -> None: ...

class FunctionCall(_message.Message):
    __slots__ = ("id", "name", "args", "key_order")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    ARGS_FIELD_NUMBER: _ClassVar[int]
    KEY_ORDER_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    args: _struct_pb2.Struct
    key_order: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., args: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., key_order: _Optional[_Iterable[str]] = ...) -> None: ...

class FunctionResponse(_message.Message):
    __slots__ = ("id", "name", "response")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    RESPONSE_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    response: _struct_pb2.Struct
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., response: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class ExecutableCode(_message.Message):
    __slots__ = ("language", "code")
    LANGUAGE_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    language: str
    code: str
    def __init__(self, language: _Optional[str] = ..., code: _Optional[str] = ...) -> None: ...

class CodeExecutionResult(_message.Message):
    __slots__ = ("outcome", "output")
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_FIELD_NUMBER: _ClassVar[int]
    outcome: str
    output: str
    def __init__(self, outcome: _Optional[str] = ..., output: _Optional[str] = ...) -> None: ...
