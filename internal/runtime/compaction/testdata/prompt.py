"""Writes the summarizer prompt google-adk builds for a fixed set of events.

The events are those of TestPrompt2xMatchesADK; the prompt is written as a
JSON string to prompt-adk-<google-adk version>.json.

Usage, in a virtualenv holding the google-adk release to record:
  python prompt.py
"""

import json

from google.adk import version
from google.adk.apps.llm_event_summarizer import LlmEventSummarizer
from google.adk.events.event import Event
from google.adk.models.base_llm import BaseLlm
from google.genai import types


class Unused(BaseLlm):
  """The summarizer needs a model; formatting never calls it."""

  async def generate_content_async(self, llm_request, stream=False):
    raise NotImplementedError
    yield


def event(author, *parts):
  return Event(author=author, content=types.Content(
      role="model" if author != "user" else "user", parts=list(parts)))


EVENTS = [
    event("user", types.Part(text="Find the café in Zürich.")),
    event("finder", types.Part(text="Let me look.", thought=True),
          types.Part(text="Looking."),
          types.Part(function_call=types.FunctionCall(
              name="search", args={"query": "café", "limit": 3, "exact": True}))),
    event("finder", types.Part(function_response=types.FunctionResponse(
        name="search", response={"hits": ["é" * 2100], "more": None}))),
    event("finder", types.Part(function_call=types.FunctionCall(
        name="adk_request_credential", args={"secret": "s3cret"}))),
    event("finder", types.Part(text="Found it.")),
]


def main() -> None:
  summarizer = LlmEventSummarizer(llm=Unused(model="unused"))
  prompt = summarizer._prompt_template.format(
      conversation_history=summarizer._format_events_for_prompt(EVENTS))
  with open("prompt-adk-%s.json" % version.__version__, "w") as f:
    json.dump(prompt, f, ensure_ascii=False)
    f.write("\n")


if __name__ == "__main__":
  main()
