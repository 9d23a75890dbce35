/**
 * Small readers and writers of wire values every adapter uses: numbers and records in JSON answers, the
 * option fields of a body, query strings, headers, a message's text.
 */
import type { ChatMessage } from "../util/index.js";

/** A number field, or `undefined` when absent (usage fields are often missing on compatible servers). */
export function optionalNumber(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The option fields of a request body, in the order BAML 0.226.2 sends them: the client's options as
 * written (`model` among them), then each provider default the options leave unset. A `stream` the
 * options name keeps its place but says what the call does (`stream false` on a streaming call sends
 * `true`); an adapter adds `stream` after the messages when the options do not name it.
 */
export function optionFields(
  model: string | undefined,
  passthrough: Readonly<Record<string, unknown>>,
  stream: boolean,
  defaults: Readonly<Record<string, unknown>> = {},
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (model !== undefined && !("model" in passthrough)) body.model = model;
  Object.assign(body, passthrough);
  for (const [name, value] of Object.entries(defaults)) if (!(name in body)) body[name] = value;
  if ("stream" in body) body.stream = stream;
  return body;
}

/** Appends `query` (already-encoded values are encoded again: pass raw strings) to `url`. */
export function withQuery(url: string, query: Readonly<Record<string, string>>): string {
  const entries = Object.entries(query);
  if (entries.length === 0) return url;
  const encoded = entries.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  return `${url}${url.includes("?") ? "&" : "?"}${encoded.join("&")}`;
}

/** The text parts of a message, joined (media parts skipped). */
export function messageText(message: ChatMessage): string {
  let text = "";
  for (const part of message.parts) if (part.type === "text") text += part.text;
  return text;
}

/** Merges header maps left to right with lower-cased names, so a client's `Content-Type` replaces ours. */
export function mergeHeaders(...maps: Readonly<Record<string, string>>[]): Record<string, string> {
  const result: Record<string, string> = {};
  for (const map of maps) for (const [name, value] of Object.entries(map)) result[name.toLowerCase()] = value;
  return result;
}
