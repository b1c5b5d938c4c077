import type { MessageInitShape } from "@bufbuild/protobuf";
import { isMessage } from "@bufbuild/protobuf";
import { type PartSchema, PartSchema as PartMessage } from "./gen/agentsvc/v1/content_pb.js";

/** The prefix of artifact names that belong to the user (any of their sessions sees them). */
export const USER_ARTIFACT_PREFIX = "user:";

/**
 * The content of an artifact:
 *
 * - bytes (a Uint8Array or a Buffer), saved as inline data with the MIME
 *   type given beside them, which is then required;
 * - text, saved as a text part; with a MIME type, its UTF-8 bytes are saved
 *   as inline data of that type instead (e.g. a CSV as "text/csv");
 * - a Part (`{ inlineData: { mimeType, data } }` or `{ text }`), saved as is.
 */
export type ArtifactData = Uint8Array | string | MessageInitShape<typeof PartSchema>;

/**
 * Converts artifact data into the Part to store. Throws a TypeError for data
 * the service would refuse: bytes without a MIME type, empty text, a Part
 * without inline data or text, or a MIME type given with a Part.
 */
export function artifactPart(filename: string, data: ArtifactData, mimeType?: string): MessageInitShape<typeof PartSchema> {
  const what = `artifact ${JSON.stringify(filename)}`;
  if (mimeType !== undefined && (typeof mimeType !== "string" || mimeType === "")) {
    throw new TypeError(`${what}: mimeType must be a non-empty string`);
  }
  if (data instanceof Uint8Array) {
    if (mimeType === undefined) {
      throw new TypeError(`${what}: bytes need a mimeType`);
    }
    return { inlineData: { mimeType, data } };
  }
  if (typeof data === "string") {
    if (mimeType !== undefined) {
      return { inlineData: { mimeType, data: new TextEncoder().encode(data) } };
    }
    if (data === "") {
      throw new TypeError(`${what}: the text is empty`);
    }
    return { text: data };
  }
  const value: unknown = data;
  if (typeof value !== "object" || value === null || Array.isArray(value) || (isMessage(value) && !isMessage(value, PartMessage))) {
    const type = value === null ? "null" : Array.isArray(value) ? "array" : isMessage(value) ? value.$typeName : typeof value;
    throw new TypeError(`${what}: the data is a ${type}, not bytes, text or a Part`);
  }
  if (mimeType !== undefined) {
    throw new TypeError(`${what}: a Part carries its own MIME type (inlineData.mimeType); do not pass mimeType`);
  }
  if (data.inlineData == null && !data.text) {
    throw new TypeError(`${what}: a Part must have inlineData or text`);
  }
  return data;
}

/** Throws a TypeError for a filename that is not a string or names nothing. */
export function checkFilename(filename: string): void {
  if (typeof filename !== "string") {
    throw new TypeError(`an artifact's filename must be a string, not a ${typeof filename}`);
  }
  const name = filename.startsWith(USER_ARTIFACT_PREFIX) ? filename.slice(USER_ARTIFACT_PREFIX.length) : filename;
  if (name.trim() === "") {
    throw new TypeError(`artifact filename ${JSON.stringify(filename)} is empty`);
  }
}

/**
 * The files a tool or callback saves during one call, by name, sent with its
 * result. Saving a name again replaces the earlier data: one call stores one
 * version per name.
 */
export class ArtifactFiles {
  private readonly files = new Map<string, MessageInitShape<typeof PartSchema>>();

  save(filename: string, data: ArtifactData, mimeType?: string): void {
    checkFilename(filename);
    this.files.set(filename, artifactPart(filename, data, mimeType));
  }

  /** The saved files, or undefined when there are none. */
  result(): Record<string, MessageInitShape<typeof PartSchema>> | undefined {
    return this.files.size === 0 ? undefined : Object.fromEntries(this.files);
  }
}
