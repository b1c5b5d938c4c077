"""RequestInput interrupts: approve/reject, typed list, interrupt id reuse, two pending, fresh text while paused."""
from pydantic import BaseModel
from google.genai import types
from google.adk.agents.context import Context
from google.adk.events.request_input import RequestInput
from google.adk.events.event import Event
from google.adk.workflow import JoinNode, Workflow
from google.adk.workflow._node import node
from google.adk.workflow.utils._workflow_hitl_utils import create_request_input_response

from rec import observe, request_input_ids, run_turns, user_text


class ApprovalResponse(BaseModel):
    approved: bool
    comment: str = ""


def approval_wf():
    @node
    async def approval_gate(node_input, ctx: Context):
        observe("approval_gate.node_input", node_input)
        yield RequestInput(message="Please approve or reject this action.", response_schema=ApprovalResponse,
                           payload={"action": node_input.parts[0].text if hasattr(node_input, "parts") else node_input})

    @node
    def process_if_approved(node_input, ctx: Context):
        observe("process_if_approved.node_input", node_input)
        if not isinstance(node_input, dict) or not node_input.get("approved"):
            ctx.actions.state_delta["status"] = "rejected"
            return
        ctx.actions.state_delta["status"] = "approved"
        ctx.actions.state_delta["comment"] = node_input.get("comment", "")

    return Workflow(name="approval_wf", edges=[("START", approval_gate, process_if_approved)])


def resume_last(response, name="adk_request_input"):
    def build(recs):
        iid = request_input_ids(recs[-1]["events"], name)[0]
        return types.Content(role="user", parts=[create_request_input_response(interrupt_id=iid, response=response)])
    return build


def resume_id(iid, response):
    return types.Content(role="user", parts=[create_request_input_response(interrupt_id=iid, response=response)])


def tags_wf():
    @node
    async def collect_tags(node_input, ctx: Context):
        observe("collect_tags.node_input", node_input)
        yield RequestInput(message="Please provide tags for this item (list of strings).", response_schema=list[str],
                           interrupt_id="collect-tags-001")

    @node
    def save_tags(node_input, ctx: Context):
        observe("save_tags.node_input", node_input)
        ctx.actions.state_delta["tags"] = node_input if isinstance(node_input, list) else []

    return Workflow(name="tags_wf", edges=[("START", collect_tags, save_tags)])


REVIEW_ID = "document-review-v1"


def review_wf():
    @node
    async def request_document_review(node_input, ctx: Context):
        observe("request_document_review.node_input", node_input)
        draft = ctx.session.state.get("draft", "")
        yield RequestInput(interrupt_id=REVIEW_ID, message=f"Please review this draft: {draft[:200]}...",
                           payload={"draft_length": len(draft)}, response_schema=dict)

    @node
    async def decide(node_input, ctx: Context):
        observe("decide.node_input", node_input)
        if isinstance(node_input, dict) and node_input.get("approved"):
            yield Event(output=node_input, route="done")
        else:
            ctx.state["draft"] = ctx.state.get("draft", "") + " (revised)"
            yield Event(output=node_input, route="revise")

    @node
    def publish(node_input, ctx: Context):
        observe("publish.node_input", node_input)
        return {"published": True}

    return Workflow(name="review_wf", edges=[("START", request_document_review, decide),
                                             (decide, {"revise": request_document_review, "done": publish})])


def two_pending_wf():
    def asker(name, iid):
        async def f(node_input, ctx: Context):
            observe(f"{name}.node_input", node_input)
            yield RequestInput(interrupt_id=iid, message=f"Question from {name}")
        f.__name__ = name
        return node(f)

    @node
    def after(node_input):
        observe("after.node_input", node_input)
        return {"both": node_input}

    return Workflow(name="two_wf", edges=[("START", (asker("ask_a", "ia"), asker("ask_b", "ib")), JoinNode(name="join"), after)])


def rerun_wf():
    @node(rerun_on_resume=True)
    async def ask_rerun(node_input, ctx: Context):
        observe("ask_rerun.node_input", node_input)
        observe("ask_rerun.resume_inputs", dict(ctx.resume_inputs))
        if "q1" in ctx.resume_inputs:
            yield {"answer": ctx.resume_inputs["q1"]}
            return
        yield RequestInput(interrupt_id="q1", message="Name?")

    @node
    def show(node_input):
        observe("show.node_input", node_input)

    return Workflow(name="rerun_wf", edges=[("START", ask_rerun, show)])


async def run():
    kw = {"invocation_ids": True}
    await run_turns("s5e1_approve", agent=approval_wf(), turns=[user_text("Process order #42"), resume_last({"approved": True, "comment": "Looks good!"})], **kw)
    await run_turns("s5e1_reject", agent=approval_wf(), turns=[user_text("Process order #42"), resume_last({"approved": False, "comment": "No"})], **kw)
    await run_turns("s5e1_invalid_response", agent=approval_wf(), turns=[user_text("Process order #42"), resume_last({"approved": "maybe?"})], **kw)
    await run_turns("s5e1_text_while_paused", agent=approval_wf(), turns=[user_text("Process order #42"), user_text("hello, are you there?"),
                                                                          lambda recs: resume_id(request_input_ids(recs[0]["events"])[0], {"approved": True})], **kw)
    await run_turns("s5e2_list_wrapped_result", agent=tags_wf(), turns=[user_text("tag this"), resume_id("collect-tags-001", {"result": ["python", "async", "google-adk"]})], **kw)
    await run_turns("s5e2_bare_dict", agent=tags_wf(), turns=[user_text("tag this"), resume_id("collect-tags-001", {"tags": ["python", "async", "google-adk"]})], **kw)
    await run_turns("s5e3_interrupt_id_reuse", agent=review_wf(), turns=[
        user_text("Review my draft"),
        resume_id(REVIEW_ID, {"approved": False, "comment": "too short"}),
        resume_id(REVIEW_ID, {"approved": False, "comment": "still short"}),
        resume_id(REVIEW_ID, {"approved": True, "comment": "ok"}),
    ], **kw)
    await run_turns("s6_two_pending", agent=two_pending_wf(), turns=[
        user_text("ask both"), resume_id("ib", {"answer": "B"}), resume_id("ia", {"answer": "A"})], **kw)
    await run_turns("s6_two_pending_both_at_once", agent=two_pending_wf(), turns=[
        user_text("ask both"),
        types.Content(role="user", parts=[create_request_input_response(interrupt_id="ia", response={"answer": "A"}),
                                          create_request_input_response(interrupt_id="ib", response={"answer": "B"})])], **kw)
    await run_turns("hitl_rerun_on_resume", agent=rerun_wf(), turns=[user_text("hi"), resume_id("q1", {"name": "Ada"})], **kw)
