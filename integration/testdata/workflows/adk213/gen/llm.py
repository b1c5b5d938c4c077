"""LlmAgent nodes: single_turn typed output, task mode via run_llm_agent_as_node, chat coordinator delegating."""
from pydantic import BaseModel
from google.adk.agents import LlmAgent
from google.adk.workflow import Workflow
from google.adk.workflow._llm_agent_wrapper import run_llm_agent_as_node
from google.adk.workflow._node import node

from rec import Scripted, observe, run_turns, user_text


class SentimentResult(BaseModel):
    sentiment: str
    confidence: float
    reason: str


def s3e1():
    sentiment_node = LlmAgent(name="sentiment", model=Scripted(),
                              instruction="Classify the sentiment of the text you receive. Return only JSON matching the schema.",
                              output_schema=SentimentResult, output_key="sentiment_result")

    @node
    def format_output(node_input, ctx):
        observe("format_output.node_input", node_input)
        result = ctx.session.state.get("sentiment_result", {})
        ctx.actions.state_delta["report"] = f"Sentiment: {result.get('sentiment')} (confidence {result.get('confidence', 0):.0%})"

    return Workflow(name="sentiment_pipeline", edges=[("START", sentiment_node, format_output)])


class ExtractedEntities(BaseModel):
    people: list[str]
    organisations: list[str]
    locations: list[str]


def entity_agent():
    return LlmAgent(name="entity_extractor", model=Scripted(), mode="task",
                    instruction="Extract all named entities from the text you receive. Call finish_task with the structured result.",
                    output_schema=ExtractedEntities)


def summarise_node():
    @node
    def summarise(node_input, ctx):
        observe("summarise.node_input", node_input)
        entities = node_input or {}
        ctx.actions.state_delta["summary"] = (f"Found {len(entities.get('people', []))} people, "
                                              f"{len(entities.get('organisations', []))} orgs, "
                                              f"{len(entities.get('locations', []))} locations.")
    return summarise


def s3e2_wrapped():
    agent = entity_agent()

    @node
    async def entity_node(node_input, ctx):
        observe("entity_node.node_input", node_input)
        async for event in run_llm_agent_as_node(agent, ctx=ctx, node_input=node_input):
            yield event

    return Workflow(name="ner_pipeline", edges=[("START", entity_node, summarise_node())])


def s3e2_direct():
    return Workflow(name="ner_pipeline", edges=[("START", entity_agent(), summarise_node())])


S3E2_SCRIPT = [
    [("finish_task", {"people": "Steve Jobs, Tim Cook", "organisations": ["Apple Inc."]}, "fc-bad")],
    [("finish_task", {"people": ["Steve Jobs", "Tim Cook"], "organisations": ["Apple Inc."], "locations": ["Cupertino"]}, "fc-good")],
]
S3E2_TEXT = "Apple Inc. was founded by Steve Jobs in Cupertino. Tim Cook now leads the company."


def s3e3():
    research_agent = LlmAgent(name="researcher", model=Scripted(), mode="task",
                              instruction="Research the topic provided to you. Return a concise summary.")
    writer_agent = LlmAgent(name="writer", model=Scripted(), mode="task",
                            instruction="Write a polished article based on the research provided to you. Call finish_task with the article text.",
                            output_key="article")
    coordinator = LlmAgent(name="coordinator", model=Scripted(), mode="chat",
                           instruction=("You coordinate a research + writing pipeline. "
                                        "First, ask the researcher sub-agent to gather information. "
                                        "Then pass the result to the writer sub-agent to produce the article. "
                                        "Finally, summarise what was accomplished."),
                           sub_agents=[research_agent, writer_agent])
    return Workflow(name="research_write", edges=[("START", coordinator)])


async def run():
    await run_turns("s3e1_single_turn", agent=s3e1(), turns=[user_text("I absolutely love this product!")],
                    script=[['{"sentiment": "positive", "confidence": 0.97, "reason": "The text expresses strong enthusiasm."}']])
    await run_turns("s3e2_task_wrapped", agent=s3e2_wrapped(), turns=[user_text(S3E2_TEXT)], script=S3E2_SCRIPT)
    await run_turns("s3e2_task_direct", agent=s3e2_direct(), turns=[user_text(S3E2_TEXT)], script=S3E2_SCRIPT)
    await run_turns("s3e3_chat_delegation", agent=s3e3(), turns=[user_text("Write a short article about the history of quantum computing.")],
                    script=S3E3_SCRIPT, invocation_ids=True)


S3E3_SCRIPT = [
    [("researcher", {"request": "Gather the key milestones in the history of quantum computing."}, "fc-research")],
    [("finish_task", {"result": "Feynman proposed quantum simulation in 1981; Shor's algorithm followed in 1994."}, "fc-research-done")],
    [("writer", {"request": "Write a short article from: Feynman 1981, Shor 1994."}, "fc-write")],
    [("finish_task", {"result": "Quantum computing began with Feynman's 1981 proposal and took off with Shor's 1994 algorithm."}, "fc-write-done")],
    ["I researched the history and had the writer produce a short article."],
]
