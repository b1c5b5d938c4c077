"""The function tools of the recorded apps (tools.get_weather, tools.get_time).

agentsvc serves the same two as client tools declared on Connect, or as test
tools with the same declarations and results.
"""


def get_weather(city: str) -> dict:
  """Returns the weather forecast for a city."""
  return {"city": city, "forecast": "sunny"}


def get_time(city: str) -> dict:
  """Returns the current time in a city."""
  return {"city": city, "time": "10:00"}
