from agentsvc.v1 import content_pb2 as _content_pb2
from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ListArtifactKeysRequest(_message.Message):
    __slots__ = ("app_name", "user_id", "session_id")
    APP_NAME_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    app_name: str
    user_id: str
    session_id: str
    def __init__(self, app_name: _Optional[str] = ..., user_id: _Optional[str] = ..., session_id: _Optional[str] = ...) -> None: ...

class ListArtifactKeysResponse(_message.Message):
    __slots__ = ("filenames",)
    FILENAMES_FIELD_NUMBER: _ClassVar[int]
    filenames: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, filenames: _Optional[_Iterable[str]] = ...) -> None: ...

class LoadArtifactRequest(_message.Message):
    __slots__ = ("app_name", "user_id", "session_id", "filename", "version")
    APP_NAME_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    FILENAME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    app_name: str
    user_id: str
    session_id: str
    filename: str
    version: int
    def __init__(self, app_name: _Optional[str] = ..., user_id: _Optional[str] = ..., session_id: _Optional[str] = ..., filename: _Optional[str] = ..., version: _Optional[int] = ...) -> None: ...

class LoadArtifactResponse(_message.Message):
    __slots__ = ("artifact",)
    ARTIFACT_FIELD_NUMBER: _ClassVar[int]
    artifact: _content_pb2.Part
    def __init__(self, artifact: _Optional[_Union[_content_pb2.Part, _Mapping]] = ...) -> None: ...

class ListArtifactVersionsRequest(_message.Message):
    __slots__ = ("app_name", "user_id", "session_id", "filename")
    APP_NAME_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    FILENAME_FIELD_NUMBER: _ClassVar[int]
    app_name: str
    user_id: str
    session_id: str
    filename: str
    def __init__(self, app_name: _Optional[str] = ..., user_id: _Optional[str] = ..., session_id: _Optional[str] = ..., filename: _Optional[str] = ...) -> None: ...

class ListArtifactVersionsResponse(_message.Message):
    __slots__ = ("versions",)
    VERSIONS_FIELD_NUMBER: _ClassVar[int]
    versions: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, versions: _Optional[_Iterable[int]] = ...) -> None: ...

class ListArtifactVersionsMetadataRequest(_message.Message):
    __slots__ = ("app_name", "user_id", "session_id", "filename")
    APP_NAME_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    FILENAME_FIELD_NUMBER: _ClassVar[int]
    app_name: str
    user_id: str
    session_id: str
    filename: str
    def __init__(self, app_name: _Optional[str] = ..., user_id: _Optional[str] = ..., session_id: _Optional[str] = ..., filename: _Optional[str] = ...) -> None: ...

class ListArtifactVersionsMetadataResponse(_message.Message):
    __slots__ = ("versions",)
    VERSIONS_FIELD_NUMBER: _ClassVar[int]
    versions: _containers.RepeatedCompositeFieldContainer[ArtifactVersion]
    def __init__(self, versions: _Optional[_Iterable[_Union[ArtifactVersion, _Mapping]]] = ...) -> None: ...

class GetArtifactVersionRequest(_message.Message):
    __slots__ = ("app_name", "user_id", "session_id", "filename", "version")
    APP_NAME_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    FILENAME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    app_name: str
    user_id: str
    session_id: str
    filename: str
    version: int
    def __init__(self, app_name: _Optional[str] = ..., user_id: _Optional[str] = ..., session_id: _Optional[str] = ..., filename: _Optional[str] = ..., version: _Optional[int] = ...) -> None: ...

class GetArtifactVersionResponse(_message.Message):
    __slots__ = ("artifact_version",)
    ARTIFACT_VERSION_FIELD_NUMBER: _ClassVar[int]
    artifact_version: ArtifactVersion
    def __init__(self, artifact_version: _Optional[_Union[ArtifactVersion, _Mapping]] = ...) -> None: ...

class SaveArtifactRequest(_message.Message):
    __slots__ = ("app_name", "user_id", "session_id", "filename", "artifact", "custom_metadata")
    APP_NAME_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    FILENAME_FIELD_NUMBER: _ClassVar[int]
    ARTIFACT_FIELD_NUMBER: _ClassVar[int]
    CUSTOM_METADATA_FIELD_NUMBER: _ClassVar[int]
    app_name: str
    user_id: str
    session_id: str
    filename: str
    artifact: _content_pb2.Part
    custom_metadata: _struct_pb2.Struct
    def __init__(self, app_name: _Optional[str] = ..., user_id: _Optional[str] = ..., session_id: _Optional[str] = ..., filename: _Optional[str] = ..., artifact: _Optional[_Union[_content_pb2.Part, _Mapping]] = ..., custom_metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class SaveArtifactResponse(_message.Message):
    __slots__ = ("artifact_version",)
    ARTIFACT_VERSION_FIELD_NUMBER: _ClassVar[int]
    artifact_version: ArtifactVersion
    def __init__(self, artifact_version: _Optional[_Union[ArtifactVersion, _Mapping]] = ...) -> None: ...

class DeleteArtifactRequest(_message.Message):
    __slots__ = ("app_name", "user_id", "session_id", "filename")
    APP_NAME_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    FILENAME_FIELD_NUMBER: _ClassVar[int]
    app_name: str
    user_id: str
    session_id: str
    filename: str
    def __init__(self, app_name: _Optional[str] = ..., user_id: _Optional[str] = ..., session_id: _Optional[str] = ..., filename: _Optional[str] = ...) -> None: ...

class DeleteArtifactResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ArtifactVersion(_message.Message):
    __slots__ = ("version", "canonical_uri", "custom_metadata", "create_time", "mime_type")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    CANONICAL_URI_FIELD_NUMBER: _ClassVar[int]
    CUSTOM_METADATA_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    MIME_TYPE_FIELD_NUMBER: _ClassVar[int]
    version: int
    canonical_uri: str
    custom_metadata: _struct_pb2.Struct
    create_time: float
    mime_type: str
    def __init__(self, version: _Optional[int] = ..., canonical_uri: _Optional[str] = ..., custom_metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., create_time: _Optional[float] = ..., mime_type: _Optional[str] = ...) -> None: ...
