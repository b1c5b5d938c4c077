import type { JsonObject, JsonValue } from "@bufbuild/protobuf";

/**
 * A JSON schema as tools declare their parameters: the subset that Gemini
 * function declarations understand (type, properties, required, items, enum,
 * description, nullable, ...). Extra keywords pass through unchanged.
 */
export interface JsonSchema {
  type?: JsonSchemaType | readonly JsonSchemaType[];
  description?: string;
  properties?: { readonly [name: string]: JsonSchema };
  required?: readonly string[];
  items?: JsonSchema;
  enum?: readonly JsonValue[];
  nullable?: boolean;
  [keyword: string]: unknown;
}

/** The JSON schema type names. */
export type JsonSchemaType = "object" | "array" | "string" | "number" | "integer" | "boolean" | "null";

/** A JSON schema describing an object: what a tool's parameters must be. */
export interface ObjectSchema extends JsonSchema {
  type: "object";
}

/**
 * The TypeScript type of the values a schema describes, for schemas written
 * as literals (a `const` type parameter or `as const`): objects with their
 * required and optional properties, arrays, enums, scalars. Anything it cannot
 * read becomes {@link JsonValue}.
 */
export type Infer<S> =
  S extends { nullable: true } ? InferType<S> | null : InferType<S>;

type InferType<S> =
  S extends { enum: readonly (infer E)[] } ? E
  : S extends { type: "string" } ? string
  : S extends { type: "number" | "integer" } ? number
  : S extends { type: "boolean" } ? boolean
  : S extends { type: "null" } ? null
  : S extends { type: "array"; items: infer I } ? Infer<I>[]
  : S extends { type: "array" } ? JsonValue[]
  : S extends { type: "object"; properties: infer P } ? InferObject<P, RequiredOf<S>>
  : S extends { type: "object" } ? JsonObject
  : JsonValue;

type RequiredOf<S> = S extends { required: readonly (infer R)[] } ? Extract<R, string> : never;

type InferObject<P, R extends string> = Simplify<
  { -readonly [K in Extract<keyof P, R>]: Infer<P[K]> } & {
    -readonly [K in Exclude<keyof P, R>]?: Infer<P[K]>;
  }
>;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** Tool names as Gemini accepts them: a letter or underscore, then up to 63 of [A-Za-z0-9_.-]. */
const toolNamePattern = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;

/**
 * Checks a tool name. Throws a TypeError naming the rule it breaks.
 */
export function checkToolName(name: string): void {
  if (!toolNamePattern.test(name)) {
    throw new TypeError(
      `tool name ${JSON.stringify(name)} is invalid: start with a letter or underscore, ` +
        "then use letters, digits, underscores, dots or dashes (at most 64 characters)",
    );
  }
}

/**
 * Returns the parameters schema a tool declares, as JSON: an absent schema
 * is an object without properties; a schema without a type but with
 * properties is an object. Throws a TypeError when the schema is not an
 * object schema, when `required` names a property that is not declared, or
 * when it holds values JSON cannot carry.
 */
export function normalizeParameters(tool: string, schema: JsonSchema | undefined): JsonObject {
  if (schema === undefined) {
    return { type: "object", properties: {} };
  }
  const json = toJsonObject(schema, `tool ${tool}: parameters`);
  const type = json["type"];
  if (type === undefined) {
    json["type"] = "object";
  } else if (typeof type !== "string" || type.toLowerCase() !== "object") {
    throw new TypeError(`tool ${tool}: parameters must be an object schema, got type ${JSON.stringify(type)}`);
  }
  const properties = json["properties"];
  if (properties !== undefined && !isObject(properties)) {
    throw new TypeError(`tool ${tool}: parameters.properties must be an object`);
  }
  const required = json["required"];
  if (required !== undefined) {
    if (!Array.isArray(required) || !required.every((r) => typeof r === "string")) {
      throw new TypeError(`tool ${tool}: parameters.required must be an array of property names`);
    }
    const declared = isObject(properties) ? properties : {};
    const missing = required.filter((r) => !Object.hasOwn(declared, r as string));
    if (missing.length > 0) {
      throw new TypeError(`tool ${tool}: parameters.required names undeclared properties: ${missing.join(", ")}`);
    }
  }
  return json;
}

/**
 * Returns a deep copy of value as a JSON object. Keys whose value is
 * undefined are dropped, as JSON.stringify does. Throws a TypeError naming the
 * path of the first value JSON cannot carry (functions, symbols, bigints,
 * non-finite numbers, cycles, undefined inside arrays).
 */
export function toJsonObject(value: unknown, what: string): JsonObject {
  const json = toJsonValue(value, what);
  if (!isObject(json)) {
    throw new TypeError(`${what} must be a JSON object`);
  }
  return json;
}

/** Like {@link toJsonObject}, for any JSON value. */
export function toJsonValue(value: unknown, what: string): JsonValue {
  return copy(value, what, new Set());
}

function copy(value: unknown, path: string, seen: Set<object>): JsonValue {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      if (!Number.isFinite(value)) {
        throw new TypeError(`${path} is ${value}, which JSON cannot carry`);
      }
      return value;
    case "object":
      break;
    default:
      throw new TypeError(`${path} is a ${typeof value}, which JSON cannot carry`);
  }
  if (value === null) {
    return null;
  }
  if (seen.has(value)) {
    throw new TypeError(`${path} refers to itself`);
  }
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === "function") {
    // Dates and similar objects serialise themselves, as with JSON.stringify.
    return copy(toJSON.call(value), path, seen);
  }
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      return value.map((item, i) => copy(item, `${path}[${i}]`, seen));
    }
    const out: JsonObject = {};
    for (const [key, item] of Object.entries(value)) {
      if (item !== undefined) {
        out[key] = copy(item, `${path}.${key}`, seen);
      }
    }
    return out;
  } finally {
    seen.delete(value);
  }
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
