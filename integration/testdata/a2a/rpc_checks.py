"""Drives an A2A JSON-RPC endpoint with a2a-sdk's client and raw requests.

usage: rpc_checks.py RPC_URL CHECK [ARG...]

Prints one JSON line per step: its name and what the server answered (the
result, or the JSON-RPC error's code, message and data).

CHECK is one of:
  envelope PREFIX   malformed requests, each message in context PREFIX-<n>
  metadata CONTEXT  message/send with request-level metadata
  cancel CONTEXT    a running task cancelled, then cancelled again, and an
                    unknown one; then a second message in the same context
  resubscribe CONTEXT  tasks/resubscribe to a finished task and an unknown one
  partmeta CONTEXT  message/send whose parts carry metadata as ADK's
                    RemoteA2aAgent sends the user's turn (is_user_input)
"""

import asyncio
import json
import sys
import uuid

import httpx
from a2a.client.errors import A2AClientJSONRPCError
from a2a.client.transports.jsonrpc import JsonRpcTransport
from a2a.types import Message
from a2a.types import MessageSendConfiguration
from a2a.types import MessageSendParams
from a2a.types import Part
from a2a.types import Role
from a2a.types import TaskIdParams
from a2a.types import TaskQueryParams
from a2a.types import TextPart


def emit(step, **fields):
  print(json.dumps({"step": step, **fields}), flush=True)


def user_message(context_id, text):
  return Message(
      message_id=str(uuid.uuid4()),
      role=Role.user,
      parts=[Part(root=TextPart(text=text))],
      context_id=context_id,
  )


def error_fields(e):
  return {"code": e.error.code, "message": e.error.message, "data": e.error.data}


async def call(step, coro):
  try:
    res = await coro
  except A2AClientJSONRPCError as e:
    emit(step, **error_fields(e))
    return None
  emit(step, result=res.model_dump(mode="json", exclude_none=True))
  return res


def raw_message(context_id, **fields):
  m = {
      "role": "user",
      "parts": [{"kind": "text", "text": "hi"}],
      "messageId": "m-" + context_id,
      "contextId": context_id,
  }
  m.update(fields)
  return {k: v for k, v in m.items() if v is not None}


async def envelope(client, url, prefix):
  send = lambda n, **kw: {
      "jsonrpc": "2.0",
      "id": n,
      "method": "message/send",
      "params": {"message": raw_message(f"{prefix}-{n}", **kw)},
  }
  notification = send(1)
  del notification["id"]
  unknown_part = send(6)
  unknown_part["params"]["message"]["parts"] = [{"kind": "video", "x": 1}]
  stream_robot = send(7, role="robot")
  stream_robot["method"] = "message/stream"
  cases = [
      ("not an object", '"x"'),
      ("batch", json.dumps([send(2)])),
      ("missing method", json.dumps({"jsonrpc": "2.0", "id": 3})),
      ("object id", json.dumps({**send(4), "id": {"a": 1}})),
      ("fractional id", json.dumps({**send(5), "id": 1.5})),
      (
          "array params",
          json.dumps({"jsonrpc": "2.0", "id": 8, "method": "message/send", "params": [1]}),
      ),
      ("notification", json.dumps(notification)),
      ("no messageId", json.dumps(send(9, messageId=None))),
      ("role robot", json.dumps(send(10, role="robot"))),
      ("unknown part kind", json.dumps(unknown_part)),
      ("stream role robot", json.dumps(stream_robot)),
      ("unknown method", json.dumps({"jsonrpc": "2.0", "id": "u", "method": "tasks/nope", "params": {}})),
  ]
  for name, body in cases:
    r = await client.post(url, content=body, headers={"content-type": "application/json"})
    try:
      answer = r.json() if r.content else None
    except ValueError:
      answer = r.text
    emit(name, status=r.status_code, content_type=r.headers.get("content-type", ""), answer=answer)


async def part_metadata(transport, context_id):
  """Sends parts with metadata: is_user_input as RemoteA2aAgent sets it on
  the user's parts, and one with a nested value."""
  message = Message(
      message_id=str(uuid.uuid4()),
      role=Role.user,
      parts=[
          Part(root=TextPart(text="Hi", metadata={"is_user_input": True})),
          Part(
              root=TextPart(
                  text="from the front",
                  metadata={"is_user_input": True, "source": {"hop": 1}},
              )
          ),
      ],
      context_id=context_id,
  )
  await call("send", transport.send_message(MessageSendParams(message=message)))


async def main(url, check, arg):
  async with httpx.AsyncClient(timeout=60) as client:
    transport = JsonRpcTransport(client, url=url)
    if check == "envelope":
      await envelope(client, url, arg)
    elif check == "metadata":
      await call(
          "send",
          transport.send_message(
              MessageSendParams(
                  message=user_message(arg, "Hi"),
                  metadata={"trace": "t-1", "n": 2},
              )
          ),
      )
    elif check == "cancel":
      task = await call(
          "send",
          transport.send_message(
              MessageSendParams(
                  message=user_message(arg, "Take your time"),
                  configuration=MessageSendConfiguration(blocking=False),
              )
          ),
      )
      if task is None:
        return
      # The task runs until its model answers, which it does not.
      for _ in range(100):
        got = await transport.get_task(TaskQueryParams(id=task.id))
        if got.status.state.value == "working":
          break
        await asyncio.sleep(0.1)
      await call("cancel", transport.cancel_task(TaskIdParams(id=task.id)))
      await call("get", transport.get_task(TaskQueryParams(id=task.id)))
      await call("cancel again", transport.cancel_task(TaskIdParams(id=task.id)))
      await call("cancel unknown", transport.cancel_task(TaskIdParams(id="no-such-task")))
      await call(
          "send again",
          transport.send_message(MessageSendParams(message=user_message(arg, "Again"))),
      )
    elif check == "resubscribe":
      task = await call(
          "send", transport.send_message(MessageSendParams(message=user_message(arg, "Hi")))
      )
      for step, task_id in (("finished", task.id), ("unknown", "no-such-task")):
        try:
          async for ev in transport.resubscribe(TaskIdParams(id=task_id)):
            emit(step, result=ev.model_dump(mode="json", exclude_none=True))
        except A2AClientJSONRPCError as e:
          emit(step, **error_fields(e))
    elif check == "partmeta":
      await part_metadata(transport, arg)
    else:
      sys.exit(f"unknown check {check}")


if __name__ == "__main__":
  asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else ""))
