from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ListAppsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListAppsResponse(_message.Message):
    __slots__ = ("app_names",)
    APP_NAMES_FIELD_NUMBER: _ClassVar[int]
    app_names: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, app_names: _Optional[_Iterable[str]] = ...) -> None: ...

class GetAppRequest(_message.Message):
    __slots__ = ("app_name",)
    APP_NAME_FIELD_NUMBER: _ClassVar[int]
    app_name: str
    def __init__(self, app_name: _Optional[str] = ...) -> None: ...

class GetAppResponse(_message.Message):
    __slots__ = ("app",)
    APP_FIELD_NUMBER: _ClassVar[int]
    app: App
    def __init__(self, app: _Optional[_Union[App, _Mapping]] = ...) -> None: ...

class App(_message.Message):
    __slots__ = ("name", "root_agent")
    NAME_FIELD_NUMBER: _ClassVar[int]
    ROOT_AGENT_FIELD_NUMBER: _ClassVar[int]
    name: str
    root_agent: AgentInfo
    def __init__(self, name: _Optional[str] = ..., root_agent: _Optional[_Union[AgentInfo, _Mapping]] = ...) -> None: ...

class AgentInfo(_message.Message):
    __slots__ = ("name", "agent_class", "description", "model", "tools", "sub_agents", "callbacks")
    NAME_FIELD_NUMBER: _ClassVar[int]
    AGENT_CLASS_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    TOOLS_FIELD_NUMBER: _ClassVar[int]
    SUB_AGENTS_FIELD_NUMBER: _ClassVar[int]
    CALLBACKS_FIELD_NUMBER: _ClassVar[int]
    name: str
    agent_class: str
    description: str
    model: str
    tools: _containers.RepeatedCompositeFieldContainer[ToolInfo]
    sub_agents: _containers.RepeatedCompositeFieldContainer[AgentInfo]
    callbacks: _containers.RepeatedCompositeFieldContainer[CallbackInfo]
    def __init__(self, name: _Optional[str] = ..., agent_class: _Optional[str] = ..., description: _Optional[str] = ..., model: _Optional[str] = ..., tools: _Optional[_Iterable[_Union[ToolInfo, _Mapping]]] = ..., sub_agents: _Optional[_Iterable[_Union[AgentInfo, _Mapping]]] = ..., callbacks: _Optional[_Iterable[_Union[CallbackInfo, _Mapping]]] = ...) -> None: ...

class CallbackInfo(_message.Message):
    __slots__ = ("name", "field")
    NAME_FIELD_NUMBER: _ClassVar[int]
    FIELD_FIELD_NUMBER: _ClassVar[int]
    name: str
    field: str
    def __init__(self, name: _Optional[str] = ..., field: _Optional[str] = ...) -> None: ...

class ToolInfo(_message.Message):
    __slots__ = ("name", "description", "remote", "long_running", "agent")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    REMOTE_FIELD_NUMBER: _ClassVar[int]
    LONG_RUNNING_FIELD_NUMBER: _ClassVar[int]
    AGENT_FIELD_NUMBER: _ClassVar[int]
    name: str
    description: str
    remote: bool
    long_running: bool
    agent: AgentInfo
    def __init__(self, name: _Optional[str] = ..., description: _Optional[str] = ..., remote: _Optional[bool] = ..., long_running: _Optional[bool] = ..., agent: _Optional[_Union[AgentInfo, _Mapping]] = ...) -> None: ...
