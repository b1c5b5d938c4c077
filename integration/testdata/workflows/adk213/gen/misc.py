"""Node input to LLM content, resumable apps (agent_state / end_of_agent), run ids across turns, parallel ordering."""
import asyncio

from pydantic import BaseModel
from google.genai import types
from google.adk.agents import LlmAgent
from google.adk.apps import App, ResumabilityConfig
from google.adk.events.request_input import RequestInput
from google.adk.workflow import JoinNode, Workflow
from google.adk.workflow._node import node

from rec import Scripted, observe, request_input_ids, run_turns, user_text


class City(BaseModel):
    name: str
    population: int


def input_to_llm_wf(value):
    @node
    def produce(node_input):
        observe("produce.node_input", node_input)
        return value

    echo = LlmAgent(name="echo", model=Scripted(), instruction="Repeat what you get.")
    return Workflow(name="in_wf", edges=[("START", produce, echo)])


def start_to_llm_wf():
    echo = LlmAgent(name="echo", model=Scripted(), instruction="Repeat what you get.")

    @node
    def after(node_input):
        observe("after.node_input", node_input)

    return Workflow(name="start_llm_wf", edges=[("START", echo, after)])


def simple_wf():
    @node
    def first(node_input):
        observe("first.node_input", node_input)
        return {"got": node_input.parts[0].text if hasattr(node_input, "parts") else node_input}

    @node
    def second(node_input):
        observe("second.node_input", node_input)
        return "done"

    return Workflow(name="simple_wf", edges=[("START", first, second)])


def ask_wf():
    @node
    async def ask(node_input):
        yield RequestInput(interrupt_id="q", message="Proceed?")

    @node
    def finish(node_input):
        return {"answer": node_input}

    return Workflow(name="ask_wf", edges=[("START", ask, finish)])


def parallel_wf():
    def worker(name, delay, yields_state=False):
        async def f(node_input, ctx):
            observe(f"{name}.start", delay)
            await asyncio.sleep(delay)
            observe(f"{name}.end", delay)
            return f"{name}-out"
        f.__name__ = name
        return node(f)

    return Workflow(name="par_wf", edges=[("START", (worker("slow", 0.05), worker("fast", 0.0), worker("mid", 0.02)), JoinNode(name="join"))])


async def run():
    for label, value in [("dict", {"city": "Zürich", "n": 1}), ("model", City(name="Zürich", population=400000)), ("int", 7),
                         ("list", ["a", "é"]), ("str", "plain text"), ("content", types.Content(role="model", parts=[types.Part(text="from content")]))]:
        await run_turns(f"node_input_to_llm_{label}", agent=input_to_llm_wf(value), turns=[user_text("go")], script=[["ok"]])
    await run_turns("start_input_multipart", agent=start_to_llm_wf(), turns=[types.Content(role="user", parts=[types.Part(text="part one"), types.Part(text="part two")])],
                    script=[["echoed"]])
    await run_turns("run_ids_across_turns", agent=simple_wf(), turns=[user_text("one"), user_text("two")], invocation_ids=True)
    app = App(name="resumable_app", root_agent=simple_wf(), resumability_config=ResumabilityConfig(is_resumable=True))
    await run_turns("resumable_simple", app=app, turns=[user_text("one")], invocation_ids=True)
    app2 = App(name="resumable_app", root_agent=ask_wf(), resumability_config=ResumabilityConfig(is_resumable=True))
    await run_turns("resumable_interrupt", app=app2, turns=[user_text("start"), lambda recs: types.Content(role="user", parts=[
        types.Part(function_response=types.FunctionResponse(id="q", name="adk_request_input", response={"ok": True}))])], invocation_ids=True)
    app3 = App(name="plain_app", root_agent=ask_wf())
    await run_turns("nonresumable_app_interrupt", app=app3, turns=[user_text("start"), lambda recs: types.Content(role="user", parts=[
        types.Part(function_response=types.FunctionResponse(id="q", name="adk_request_input", response={"ok": True}))])], invocation_ids=True)
    await run_turns("parallel_ordering", agent=parallel_wf(), turns=[user_text("go")])
