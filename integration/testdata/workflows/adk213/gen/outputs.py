"""Function node outputs: str, dict, pydantic model, None, Content, yielded values."""
from pydantic import BaseModel
from google.genai import types
from google.adk.workflow import Workflow
from google.adk.workflow._node import node
from google.adk.events.event import Event

from rec import observe, run_turns, user_text


class Tag(BaseModel):
    name: str
    score: float


@node
def ret_str(node_input):
    observe("ret_str.node_input", node_input)
    return "hello"


@node
def ret_dict(node_input):
    observe("ret_dict.node_input", node_input)
    return {"a": 1, "b": [1, 2]}


@node
def ret_model(node_input):
    observe("ret_model.node_input", node_input)
    return Tag(name="x", score=0.5)


@node
def ret_none(node_input):
    observe("ret_none.node_input", node_input)
    return None


@node
def ret_none_state(node_input, ctx):
    observe("ret_none_state.node_input", node_input)
    ctx.state["seen"] = True
    return None


@node
async def gen_yield(node_input):
    observe("gen_yield.node_input", node_input)
    yield 42


@node
def ret_content(node_input):
    observe("ret_content.node_input", node_input)
    return types.Content(role="model", parts=[types.Part(text="as content")])


@node
def last(node_input):
    observe("last.node_input", node_input)
    return {"done": True}


def build():
    return Workflow(name="outputs_wf", edges=[("START", ret_str, ret_dict, ret_model, ret_none, ret_none_state, gen_yield, ret_content, last)])


@node
def typed_str_in(node_input: str):
    observe("typed_str_in.node_input", node_input)
    return node_input.upper()


@node
async def gen_two(node_input):
    observe("gen_two.node_input", node_input)
    yield 1
    yield 2


@node
async def gen_event_state(node_input, ctx):
    observe("gen_event_state.node_input", node_input)
    ctx.state["k"] = "v"
    yield Event(output="with-state")


@node
def after(node_input):
    observe("after.node_input", node_input)


async def run():
    await run_turns("fn_outputs", agent=build(), turns=[user_text("start here")])
    await run_turns("fn_outputs_typed_and_multi", agent=Workflow(name="multi_wf", edges=[("START", typed_str_in, gen_two, after), ("START", gen_event_state, after)]),
                    turns=[user_text("typed input")])
