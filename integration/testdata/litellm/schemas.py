"""The output schemas of the recorded apps as pydantic models.

The apps declare output_schema as a JSON schema (agentsvc's form). ADK's Agent
Config wants a code reference there, so gen.py hands ADK the model below whose
model_json_schema() equals the declared schema (its title names the model).
"""

import pydantic


# A city's weather as the agent reports it (no docstring: it would become the
# schema's description).
class WeatherReport(pydantic.BaseModel):
  city: str
  forecast: str
