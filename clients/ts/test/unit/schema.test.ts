import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { defineTool, type Infer } from "../../src/index.js";
import { checkToolName, normalizeParameters, toJsonValue } from "../../src/schema.js";
import { declareTools } from "../../src/tools.js";

// Compile-time checks: `Expect<Equal<A, B>>` fails to type-check unless A and B are the same type.
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

const weatherSchema = {
  type: "object",
  properties: {
    city: { type: "string" },
    days: { type: "integer" },
    unit: { enum: ["celsius", "fahrenheit"] },
    tags: { type: "array", items: { type: "string" } },
    note: { type: "string", nullable: true },
  },
  required: ["city", "unit"],
} as const;

export type InferenceChecks = [
  Expect<Equal<Infer<typeof weatherSchema>, {
    city: string;
    unit: "celsius" | "fahrenheit";
    days?: number;
    tags?: string[];
    note?: string | null;
  }>>,
  Expect<Equal<Infer<{ type: "object" }>, import("@bufbuild/protobuf").JsonObject>>,
  Expect<Equal<Infer<{ type: "boolean" }>, boolean>>,
  Expect<Equal<Infer<{ description: "anything" }>, import("@bufbuild/protobuf").JsonValue>>,
];

describe("normalizeParameters", () => {
  const cases: { name: string; schema: Parameters<typeof normalizeParameters>[1]; want: unknown }[] = [
    { name: "absent schema is an object without properties", schema: undefined, want: { type: "object", properties: {} } },
    {
      name: "missing type becomes object",
      schema: { properties: { a: { type: "string" } } },
      want: { type: "object", properties: { a: { type: "string" } } },
    },
    { name: "Gemini's upper-case type is kept", schema: { type: "OBJECT" as "object" }, want: { type: "OBJECT" } },
    {
      name: "undefined keywords are dropped",
      schema: { type: "object", description: undefined, properties: { a: { type: "string", description: undefined } } },
      want: { type: "object", properties: { a: { type: "string" } } },
    },
    {
      name: "extra keywords pass through",
      schema: { type: "object", properties: { n: { type: "number", minimum: 0 } }, required: ["n"], additionalProperties: false },
      want: { type: "object", properties: { n: { type: "number", minimum: 0 } }, required: ["n"], additionalProperties: false },
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      assert.deepEqual(normalizeParameters("t", c.schema), c.want);
    });
  }

  const failures: { name: string; schema: unknown; message: RegExp }[] = [
    { name: "a non-object type", schema: { type: "string" }, message: /tool t: parameters must be an object schema, got type "string"/ },
    { name: "an array", schema: [], message: /must be a JSON object/ },
    { name: "properties that are not an object", schema: { type: "object", properties: [] }, message: /properties must be an object/ },
    { name: "required that is not a list of names", schema: { type: "object", required: "a" }, message: /required must be an array/ },
    {
      name: "required naming an undeclared property",
      schema: { type: "object", properties: { a: {} }, required: ["a", "b", "c"] },
      message: /undeclared properties: b, c/,
    },
    { name: "a function value", schema: { type: "object", default: () => 1 }, message: /parameters\.default is a function/ },
    { name: "a NaN", schema: { type: "object", properties: { n: { maximum: Number.NaN } } }, message: /parameters\.properties\.n\.maximum is NaN/ },
    { name: "a bigint", schema: { type: "object", x: 1n }, message: /is a bigint/ },
  ];
  for (const c of failures) {
    test(`rejects ${c.name}`, () => {
      assert.throws(() => normalizeParameters("t", c.schema as never), { name: "TypeError", message: c.message });
    });
  }

  test("rejects a cycle", () => {
    const schema: Record<string, unknown> = { type: "object" };
    schema["self"] = schema;
    assert.throws(() => normalizeParameters("t", schema), /parameters\.self refers to itself/);
  });
});

describe("toJsonValue", () => {
  test("copies nested values and serialises dates", () => {
    const when = new Date("2025-01-02T03:04:05Z");
    const input = { a: [1, "two", null, { b: true }], when, skip: undefined };
    const out = toJsonValue(input, "v");
    assert.deepEqual(out, { a: [1, "two", null, { b: true }], when: "2025-01-02T03:04:05.000Z" });
    assert.notEqual(out, input);
  });
  test("shared (non-cyclic) references are fine", () => {
    const shared = { x: 1 };
    assert.deepEqual(toJsonValue({ a: shared, b: shared }, "v"), { a: { x: 1 }, b: { x: 1 } });
  });
  test("undefined inside an array is rejected", () => {
    assert.throws(() => toJsonValue([1, undefined], "v"), /v\[1\] is a undefined/);
  });
});

describe("tool names", () => {
  for (const name of ["get_weather", "_x", "a.b-c", "A".repeat(64)]) {
    test(`accepts ${name.slice(0, 20)}`, () => checkToolName(name));
  }
  for (const name of ["", "1abc", "has space", "dollar$", "A".repeat(65)]) {
    test(`rejects ${JSON.stringify(name.slice(0, 20))}`, () => {
      assert.throws(() => checkToolName(name), TypeError);
    });
  }
});

describe("defineTool", () => {
  test("declares name, description, schemas and flags", () => {
    const tool = defineTool({
      name: "get_weather",
      description: "Weather in a city.",
      parameters: weatherSchema,
      response: { type: "object", properties: { forecast: { type: "string" } } },
      longRunning: true,
      requireConfirmation: true,
      run: ({ city, unit }) => ({ city, unit }),
    });
    assert.deepEqual(declareTools([tool]), [{
      name: "get_weather",
      description: "Weather in a city.",
      parameters: JSON.parse(JSON.stringify(weatherSchema)),
      response: { type: "object", properties: { forecast: { type: "string" } } },
      longRunning: true,
      requireConfirmation: true,
    }]);
  });

  test("defaults: no description, object parameters, flags off, no response schema", () => {
    const tool = defineTool({ name: "ping", run: () => "pong" });
    assert.deepEqual(declareTools([tool]), [{
      name: "ping",
      description: "",
      parameters: { type: "object", properties: {} },
      longRunning: false,
      requireConfirmation: false,
    }]);
  });

  test("the schema is copied: later changes to it do not leak into the declaration", () => {
    const properties: Record<string, { type: "string" }> = { a: { type: "string" } };
    const tool = defineTool({ name: "t", parameters: { type: "object", properties }, run: () => null });
    properties["b"] = { type: "string" };
    assert.deepEqual(tool.parameters, { type: "object", properties: { a: { type: "string" } } });
    assert.ok(Object.isFrozen(tool));
  });

  test("invalid definitions throw at definition time", () => {
    assert.throws(() => defineTool({ name: "bad name", run: () => null }), /tool name "bad name" is invalid/);
    assert.throws(
      () => defineTool({ name: "t", parameters: { type: "object", required: ["x"] }, run: () => null }),
      /undeclared properties: x/,
    );
    assert.throws(() => defineTool({ name: "t", run: undefined as never }), /run must be a function/);
  });

  test("declaring the same name twice is an error", () => {
    const a = defineTool({ name: "dup", run: () => 1 });
    assert.throws(() => declareTools([a, a]), /tool dup is declared twice/);
  });
});
