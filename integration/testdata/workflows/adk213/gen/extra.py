"""Fan-in without a join, a failing parallel branch, node timeout, leaves without output, nested workflows,
a fresh text while paused in a resumable app."""
import asyncio

from google.genai import types
from google.adk.apps import App, ResumabilityConfig
from google.adk.events.request_input import RequestInput
from google.adk.workflow import Workflow
from google.adk.workflow._node import node

from rec import observe, run_turns, user_text


def named(name, fn):
    fn.__name__ = name
    return node(fn)


def fan_in_wf():
    a = named("a", lambda node_input: "from-a")
    b = named("b", lambda node_input: "from-b")

    def c_fn(node_input):
        observe("c.node_input", node_input)
        return f"c({node_input})"

    c = named("c", c_fn)
    return Workflow(name="fanin_wf", edges=[("START", (a, b), c)])


def branch_error_wf():
    async def bad_fn(node_input):
        await asyncio.sleep(0)
        raise RuntimeError("branch failed")

    async def slow_fn(node_input):
        observe("slow.start", True)
        await asyncio.sleep(0.05)
        observe("slow.end", True)
        return "slow-out"

    def after_fn(node_input):
        observe("after_slow.node_input", node_input)

    slow = named("slow", slow_fn)
    return Workflow(name="err_wf", edges=[("START", (named("bad", bad_fn), slow)), (slow, named("after_slow", after_fn))])


def timeout_wf():
    async def sleepy(node_input):
        await asyncio.sleep(1)
        return "late"
    sleepy.__name__ = "sleepy"
    return Workflow(name="timeout_wf", edges=[("START", node(sleepy, timeout=0.05))])


def leaves_no_output_wf():
    def leaf(name):
        def f(node_input, ctx):
            ctx.state[name] = True
        return named(name, f)
    return Workflow(name="leaves_wf", edges=[("START", (leaf("l1"), leaf("l2")))])


def nested_wf():
    def inner_a(node_input):
        observe("inner_a.node_input", node_input)
        return {"inner": True}

    def outer_after(node_input):
        observe("outer_after.node_input", node_input)
        return "outer-done"

    inner = Workflow(name="inner_wf", edges=[("START", named("inner_a", inner_a))])
    return Workflow(name="outer_wf", edges=[("START", inner, named("outer_after", outer_after))])


def ask_wf():
    async def ask(node_input):
        observe("ask.node_input", node_input)
        yield RequestInput(interrupt_id="q", message="Proceed?")

    def finish(node_input):
        observe("finish.node_input", node_input)
        return {"answer": node_input}

    return Workflow(name="ask_wf", edges=[("START", named("ask", ask), named("finish", finish))])


def fr(iid, response):
    return types.Content(role="user", parts=[types.Part(function_response=types.FunctionResponse(id=iid, name="adk_request_input", response=response))])


async def run():
    await run_turns("fan_in_without_join", agent=fan_in_wf(), turns=[user_text("go")])
    await run_turns("parallel_branch_error", agent=branch_error_wf(), turns=[user_text("go")])
    await run_turns("node_timeout", agent=timeout_wf(), turns=[user_text("go")])
    await run_turns("fanout_leaves_without_output", agent=leaves_no_output_wf(), turns=[user_text("go")])
    await run_turns("nested_workflow", agent=nested_wf(), turns=[user_text("go")])
    app = App(name="resumable_app", root_agent=ask_wf(), resumability_config=ResumabilityConfig(is_resumable=True))
    await run_turns("resumable_text_while_paused", app=app, turns=[user_text("first"), user_text("second"), fr("q", {"ok": True})], invocation_ids=True)
    await run_turns("text_while_paused_same_fixed_id", agent=ask_wf(), turns=[user_text("first"), user_text("second"), fr("q", {"ok": True}), fr("q", {"ok": 2})], invocation_ids=True)
    await run_turns("resume_unknown_interrupt_id", agent=ask_wf(), turns=[user_text("first"), fr("nope", {"ok": True})], invocation_ids=True)
