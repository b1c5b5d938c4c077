"""Python client for agentsvc: run ADK agents declared in YAML over gRPC, with
tools written in Python.

Quick start::

    import agentsvc

    @agentsvc.tool
    def get_weather(city: str) -> dict[str, str]:
        \"\"\"Returns the current weather in a city.\"\"\"
        return {"city": city, "weather": "sunny"}

    async with agentsvc.Client("127.0.0.1:50051") as client:
        session = await client.create_session("weather", "alice")
        async for event in client.connect("weather", "alice", session.id,
                                          "What's the weather in Paris?",
                                          tools=[get_weather]):
            print(event.author, agentsvc.event_text(event))

Events, sessions, apps and artifact versions are the generated protobuf
messages of ``agentsvc.v1`` (``Event``, ``Session``, ``App``,
``ArtifactVersion``...).
"""

from agentsvc.artifacts import USER_PREFIX, ArtifactData, ArtifactVersion
from agentsvc.callbacks import Callback, CallbackContext, callback, last_user_text
from agentsvc.codeexec import CodeCall, CodeExecutor, CodeFile, CodeResult, SubprocessCodeExecutor
from agentsvc.client import DEFAULT_TARGET, Client, Message, new_request_id, user_message
from agentsvc.errors import (
    AbortedError,
    AgentsvcError,
    AlreadyExistsError,
    CancelledError,
    ConnectStartTimeoutError,
    DeadlineExceededError,
    FailedPreconditionError,
    InternalError,
    InvalidArgumentError,
    InvocationTimeoutError,
    ModelError,
    NestingTooDeepError,
    NotFoundError,
    PermissionDeniedError,
    ResourceExhaustedError,
    ResponseTooLargeError,
    SessionBusyError,
    SessionTooLargeError,
    ShuttingDownError,
    TooManyConnectStreamsError,
    UnauthenticatedError,
    UnavailableError,
    UnimplementedError,
    from_rpc_error,
)
from agentsvc.events import (
    args_of,
    event_text,
    function_calls,
    function_responses,
    is_final_response,
    response_of,
    to_dict,
)
from agentsvc.interrupts import (
    REQUEST_CREDENTIAL_FUNCTION_CALL_NAME,
    REQUEST_INPUT_FUNCTION_CALL_NAME,
    create_request_input_response,
    get_request_input_interrupt_ids,
    has_auth_request_function_call,
    has_request_input_function_call,
    request_input_message,
)
from agentsvc.invocation import Invocation
from agentsvc.pages import DEFAULT_PAGE_SIZE, SessionListPage, SessionPage
from agentsvc.tools import Tool, ToolContext, tool
from agentsvc.workflow import (
    DynamicNodeFailError,
    Node,
    NodeActions,
    NodeContext,
    NodeError,
    NodeInterruptedError,
    NodeSession,
    NodeState,
    RequestInput,
    WorkflowDataError,
    node,
)
from agentsvc.v1.app_service_pb2 import AgentInfo, App, ToolInfo
from agentsvc.v1.content_pb2 import Content, FunctionCall, FunctionResponse, Part
from agentsvc.v1.event_pb2 import Event, EventActions
from agentsvc.v1.llm_pb2 import LlmRequest, LlmResponse
from agentsvc.v1.session_pb2 import Session

__version__ = "0.1.0"

__all__ = [
    "CodeCall",
    "CodeExecutor",
    "CodeFile",
    "CodeResult",
    "SubprocessCodeExecutor",
    "DEFAULT_PAGE_SIZE",
    "DEFAULT_TARGET",
    "USER_PREFIX",
    "AbortedError",
    "AgentInfo",
    "AgentsvcError",
    "AlreadyExistsError",
    "App",
    "ArtifactData",
    "ArtifactVersion",
    "Callback",
    "CallbackContext",
    "CancelledError",
    "ConnectStartTimeoutError",
    "Client",
    "Content",
    "DeadlineExceededError",
    "DynamicNodeFailError",
    "Event",
    "EventActions",
    "FailedPreconditionError",
    "FunctionCall",
    "FunctionResponse",
    "InternalError",
    "InvalidArgumentError",
    "Invocation",
    "InvocationTimeoutError",
    "LlmRequest",
    "LlmResponse",
    "Message",
    "ModelError",
    "NestingTooDeepError",
    "Node",
    "NodeActions",
    "NodeContext",
    "NodeError",
    "NodeInterruptedError",
    "NodeSession",
    "NodeState",
    "NotFoundError",
    "Part",
    "PermissionDeniedError",
    "REQUEST_CREDENTIAL_FUNCTION_CALL_NAME",
    "REQUEST_INPUT_FUNCTION_CALL_NAME",
    "RequestInput",
    "ResourceExhaustedError",
    "ResponseTooLargeError",
    "Session",
    "SessionBusyError",
    "SessionListPage",
    "SessionPage",
    "SessionTooLargeError",
    "ShuttingDownError",
    "Tool",
    "ToolContext",
    "ToolInfo",
    "TooManyConnectStreamsError",
    "UnauthenticatedError",
    "UnavailableError",
    "UnimplementedError",
    "WorkflowDataError",
    "args_of",
    "callback",
    "create_request_input_response",
    "event_text",
    "from_rpc_error",
    "function_calls",
    "function_responses",
    "get_request_input_interrupt_ids",
    "has_auth_request_function_call",
    "has_request_input_function_call",
    "is_final_response",
    "last_user_text",
    "new_request_id",
    "node",
    "to_dict",
    "request_input_message",
    "response_of",
    "tool",
    "user_message",
]
