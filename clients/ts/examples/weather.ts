// Quick start: the example app weather_bot of `make run` calls get_weather,
// a tool that lives in this process. Run it with `node weather.mjs` (the code
// is plain JavaScript as well) after `make run` in the repository.
import { AgentsvcClient, defineTool, eventText, functionResponses, isFinalResponse } from "@agentsvc/client";

const getWeather = defineTool({
  name: "get_weather",
  description: "Returns the current weather in a city.",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  run: ({ city }) => ({ city, weather: "sunny", temperature_c: 24 }),
});

const client = new AgentsvcClient({ address: process.env["AGENTSVC_ADDR"] ?? "127.0.0.1:50051" });
const session = await client.createSession({ appName: "weather_bot", userId: "alice" });
const run = client.run({
  appName: "weather_bot", userId: "alice", sessionId: session.id,
  message: "What's the weather in Paris?", tools: [getWeather],
});
for await (const event of run) {
  for (const r of functionResponses(event)) console.log("tool result:", r.name, r.response);
  if (isFinalResponse(event)) console.log("answer:", eventText(event));
}
client.close();
