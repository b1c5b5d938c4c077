"""Serves an adk-python agent over A2A with to_a2a.

usage: adk_server.py PORT

The agent's model is gemini-2.5-flash, reached at GOOGLE_GEMINI_BASE_URL.
"""

import sys

import uvicorn
from google.adk.a2a.utils.agent_to_a2a import to_a2a
from google.adk.agents import LlmAgent


def main(port: int) -> None:
  agent = LlmAgent(
      name="forecaster",
      model="gemini-2.5-flash",
      description="Forecasts the weather.",
      instruction="You forecast the weather.",
  )
  app = to_a2a(agent, host="127.0.0.1", port=port)
  uvicorn.run(app, host="127.0.0.1", port=port, log_level="info")


if __name__ == "__main__":
  main(int(sys.argv[1]))
