"""Routes, routing maps, DEFAULT_ROUTE, bool/int/list routes, JoinNode, tool nodes."""
from google.adk.events.event import Event
from google.adk.tools.function_tool import FunctionTool
from google.adk.workflow import DEFAULT_ROUTE, JoinNode, Workflow
from google.adk.workflow._node import node

from rec import observe, run_turns, user_text


def leaf(name):
    def f(node_input):
        observe(f"{name}.node_input", node_input)
        return f"{name}-out"
    f.__name__ = name
    return node(f)


def make_router(name, route_for):
    """route_for(text) -> ("event"|"ctx", route value, output)."""
    async def f(node_input, ctx):
        text = node_input.parts[0].text if hasattr(node_input, "parts") else str(node_input)
        kind, route, out = route_for(text)
        observe(f"{name}.node_input", node_input)
        if kind == "event":
            yield Event(output=out, route=route)
        elif kind == "event_route_only":
            yield Event(route=route)
        elif kind == "ctx_noout":
            ctx.route = route
        else:
            ctx.route = route
            if out is not None:
                yield out
    f.__name__ = name
    return node(f)


def route_from_text(text):
    # "<kind> <route json>" e.g. "event a", "ctx b", "event_route_only zzz"
    import json
    kind, _, raw = text.partition(" ")
    try:
        r = json.loads(raw)
    except ValueError:
        r = raw
    return kind, r, {"routed": r}


def build_map():
    x, y, z, d = leaf("x"), leaf("y"), leaf("z"), leaf("d")
    router = make_router("router", route_from_text)
    return Workflow(name="route_wf", edges=[("START", router, {"a": x, "b": (y, z)}), (router, d, DEFAULT_ROUTE)] if False else [
        ("START", router, {"a": x, "b": (y, z), DEFAULT_ROUTE: d}),
    ])


def build_typed():
    t, f_, one, two, d = leaf("on_true"), leaf("on_false"), leaf("on_one"), leaf("on_two"), leaf("on_default")
    router = make_router("router", route_from_text)
    return Workflow(name="typed_route_wf", edges=[
        ("START", router, {True: t, False: f_, DEFAULT_ROUTE: d}),
    ])


def build_int():
    one, two, d = leaf("on_one"), leaf("on_two"), leaf("on_default")
    router = make_router("router", route_from_text)
    return Workflow(name="int_route_wf", edges=[
        ("START", router, {1: one, 2: two, DEFAULT_ROUTE: d}),
    ])


def build_edge_list_route():
    from google.adk.workflow import Edge
    from google.adk.workflow.utils._workflow_graph_utils import build_node
    router = make_router("router", route_from_text)
    p, q = leaf("p"), leaf("q")
    return Workflow(name="edge_route_wf", edges=[
        ("START", router),
        Edge(from_node=router, to_node=p, route=["r1", "r2"]),
        Edge(from_node=router, to_node=q, route="r3"),
    ])


def build_join():
    @node
    def split(node_input):
        observe("split.node_input", node_input)
        return {"text": node_input.parts[0].text}

    @node
    def left(node_input):
        observe("left.node_input", node_input)
        return "L:" + node_input["text"]

    @node
    def right(node_input):
        observe("right.node_input", node_input)
        return {"n": len(node_input["text"])}

    join = JoinNode(name="join")

    @node
    def after_join(node_input):
        observe("after_join.node_input", node_input)
        return {"joined": node_input}

    return Workflow(name="join_wf", edges=[("START", split, (left, right), join, after_join)])


def word_count(text: str, min_len: int = 0) -> dict:
    """Counts words longer than min_len."""
    observe("word_count.args", {"text": text, "min_len": min_len})
    return {"count": len([w for w in text.split() if len(w) > min_len])}


def build_tool_node():
    @node
    def prep(node_input):
        observe("prep.node_input", node_input)
        return {"text": node_input.parts[0].text, "min_len": 3}

    @node
    def show(node_input):
        observe("show.node_input", node_input)

    return Workflow(name="tool_wf", edges=[("START", prep, word_count, show)])


def build_tool_node_explicit():
    @node
    def prep(node_input):
        return {"text": node_input.parts[0].text}

    @node
    def show(node_input):
        observe("show.node_input", node_input)

    return Workflow(name="tool_wf2", edges=[("START", prep, FunctionTool(word_count), show)])


async def run():
    for label, msg in [("a", "event \"a\""), ("b", "event \"b\""), ("default", "event \"zzz\""), ("ctx_a", "ctx \"a\""),
                       ("ctx_b", "ctx \"b\""), ("ctx_noout", "ctx_noout \"a\""), ("route_only", "event_route_only \"a\""), ("list", "event [\"a\", \"b\"]")]:
        await run_turns(f"routes_map_{label}", agent=build_map(), turns=[user_text(msg)])
    for label, msg in [("true", "event true"), ("false", "event false"), ("str_true", "event \"True\""), ("int1", "event 1")]:
        await run_turns(f"routes_bool_{label}", agent=build_typed(), turns=[user_text(msg)])
    for label, msg in [("int1", "event 1"), ("int2", "event 2"), ("str1", "event \"1\""), ("int3_default", "event 3")]:
        await run_turns(f"routes_int_{label}", agent=build_int(), turns=[user_text(msg)])
    for label, msg in [("r2", "event \"r2\""), ("r3", "event \"r3\""), ("none", "event \"nope\"")]:
        await run_turns(f"routes_edge_list_{label}", agent=build_edge_list_route(), turns=[user_text(msg)])
    await run_turns("join_fanout", agent=build_join(), turns=[user_text("hello join")])
    await run_turns("tool_node_dict_input", agent=build_tool_node(), turns=[user_text("count the longer words here")])
    await run_turns("tool_node_functiontool", agent=build_tool_node_explicit(), turns=[user_text("count words")])
