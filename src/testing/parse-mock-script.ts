/**
 * The answer file of `sapling mock` (docs/mock-llm-server.md, "The answer file"): scripted answers and faults as
 * JSON, checked field by field so a typo says where it is instead of serving a wrong answer.
 */

import { hasErrorMark, markError } from "../util/index.js";
import type { MockAnswer, MockFault, MockRoute, MockToolCall } from "./mock-answer.js";

/** What an answer file scripts: a shared queue, per-route queues, and the answer once they are empty. */
export interface MockScript {
  answers: MockAnswer[];
  routes: Partial<Record<MockRoute, MockAnswer[]>>;
  defaultAnswer?: MockAnswer;
}

/** A mistake in an answer file: `path` names the field (`answers[2].fault.status`). */
export class MockScriptError extends Error {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`${path}: ${problem}`);
    this.name = "MockScriptError";
    markError(this, "MockScriptError");
  }

  /** `instanceof` that also works across two copies of the package. */
  static isInstance(value: unknown): value is MockScriptError {
    return hasErrorMark(value, "MockScriptError");
  }
}

const routes: readonly MockRoute[] = [
  "openai",
  "responses",
  "anthropic",
  "gemini",
  "bedrock",
  "transcriptions",
];
const answerKeys = [
  "text",
  "json",
  "reasoning",
  "chunks",
  "chunkSize",
  "headersDelayMs",
  "firstTokenDelayMs",
  "chunkDelayMs",
  "finishReason",
  "usage",
  "model",
  "fault",
  "toolCalls",
];

/**
 * Reads an answer file's text: a JSON array of answers (the shared queue), or an object with `answers`,
 * `routes` (queues per wire format, served first) and `default`. An answer is a string (the answer
 * text) or an object with the fields of `MockAnswer`, plus `json` (any JSON value, sent as its
 * indented text). Throws `MockScriptError` naming the first field that is wrong.
 */
export function parseMockScript(text: string): MockScript {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new MockScriptError("(file)", `not valid JSON (${error instanceof Error ? error.message : error})`);
  }
  if (Array.isArray(raw)) return { answers: answerList(raw, "answers"), routes: {} };
  const top = object(
    raw,
    "(file)",
    'a JSON array of answers, or an object with "answers", "routes", "default"',
  );
  knownKeys(top, ["answers", "routes", "default"], "(file)");
  const script: MockScript = { answers: [], routes: {} };
  if (top.answers !== undefined) script.answers = answerList(top.answers, "answers");
  if (top.routes !== undefined) {
    const byRoute = object(top.routes, "routes", `an object keyed by ${routes.join(", ")}`);
    knownKeys(byRoute, routes, "routes");
    for (const route of routes) {
      if (byRoute[route] !== undefined) script.routes[route] = answerList(byRoute[route], `routes.${route}`);
    }
  }
  if (top.default !== undefined) script.defaultAnswer = mockAnswer(top.default, "default");
  return script;
}

function answerList(value: unknown, path: string): MockAnswer[] {
  if (!Array.isArray(value))
    throw new MockScriptError(path, `expected an array of answers, got ${shown(value)}`);
  return value.map((item, index) => mockAnswer(item, `${path}[${index}]`));
}

function mockAnswer(value: unknown, path: string): MockAnswer {
  if (typeof value === "string") return { text: value };
  const fields = object(value, path, 'an answer: a string, or an object such as {"text": "…"}');
  knownKeys(fields, answerKeys, path);
  const result: MockAnswer = {};
  if (fields.text !== undefined && fields.json !== undefined)
    throw new MockScriptError(path, 'give "text" or "json", not both');
  if (fields.text !== undefined) result.text = string(fields.text, `${path}.text`);
  if (fields.json !== undefined) result.text = jsonText(fields.json, `${path}.json`);
  if (fields.reasoning !== undefined) result.reasoning = string(fields.reasoning, `${path}.reasoning`);
  if (fields.chunks !== undefined) {
    if (!Array.isArray(fields.chunks) || fields.chunks.some((chunk) => typeof chunk !== "string"))
      throw new MockScriptError(
        `${path}.chunks`,
        `expected an array of strings, got ${shown(fields.chunks)}`,
      );
    result.chunks = fields.chunks as string[];
  }
  if (fields.chunkSize !== undefined) result.chunkSize = whole(fields.chunkSize, `${path}.chunkSize`, 1);
  for (const key of ["headersDelayMs", "firstTokenDelayMs", "chunkDelayMs"] as const) {
    if (fields[key] !== undefined) result[key] = whole(fields[key], `${path}.${key}`, 0);
  }
  if (fields.finishReason !== undefined) {
    if (fields.finishReason !== "stop" && fields.finishReason !== "length")
      throw new MockScriptError(
        `${path}.finishReason`,
        `expected "stop" or "length", got ${shown(fields.finishReason)}`,
      );
    result.finishReason = fields.finishReason;
  }
  if (fields.usage !== undefined) {
    const usageKeys = [
      "inputTokens",
      "outputTokens",
      "cachedInputTokens",
      "cacheWriteInputTokens",
      "reasoningTokens",
    ] as const;
    const usage = object(fields.usage, `${path}.usage`, `an object with ${usageKeys.join(", ")}`);
    knownKeys(usage, usageKeys, `${path}.usage`);
    result.usage = {};
    for (const key of usageKeys) {
      if (usage[key] !== undefined) result.usage[key] = whole(usage[key], `${path}.usage.${key}`, 0);
    }
  }
  if (fields.model !== undefined) result.model = string(fields.model, `${path}.model`);
  if (fields.fault !== undefined) result.fault = mockFault(fields.fault, `${path}.fault`);
  if (fields.toolCalls !== undefined) result.toolCalls = toolCalls(fields.toolCalls, `${path}.toolCalls`);
  return result;
}

/** `[{"name": "Person", "arguments": {…}}]`: arguments as a JSON value, or as text (cut or malformed). */
function toolCalls(value: unknown, path: string): MockToolCall[] {
  if (!Array.isArray(value))
    throw new MockScriptError(path, `expected an array of tool calls, got ${shown(value)}`);
  return value.map((item, index) => {
    const where = `${path}[${index}]`;
    const fields = object(
      item,
      where,
      'a tool call such as {"name": "Person", "arguments": {"name": "Ada"}}',
    );
    knownKeys(fields, ["name", "arguments", "id"], where);
    const args = fields.arguments ?? {};
    return {
      name: string(fields.name, `${where}.name`),
      arguments: typeof args === "string" ? args : jsonText(args, `${where}.arguments`, 0),
      ...(fields.id !== undefined ? { id: string(fields.id, `${where}.id`) } : {}),
    };
  });
}

function mockFault(value: unknown, path: string): MockFault {
  const fields = object(value, path, 'a fault such as {"type": "http-error", "status": 429}');
  switch (fields.type) {
    case "http-error": {
      knownKeys(fields, ["type", "status", "message", "retryAfterSeconds"], path);
      const status = whole(fields.status, `${path}.status`, 400);
      if (status > 599)
        throw new MockScriptError(`${path}.status`, `expected an HTTP error status (400–599), got ${status}`);
      return {
        type: "http-error",
        status,
        ...(fields.message !== undefined ? { message: string(fields.message, `${path}.message`) } : {}),
        ...(fields.retryAfterSeconds !== undefined
          ? { retryAfterSeconds: whole(fields.retryAfterSeconds, `${path}.retryAfterSeconds`, 0) }
          : {}),
      };
    }
    case "reset":
    case "malformed":
      knownKeys(fields, ["type", "afterChunks"], path);
      return { type: fields.type, afterChunks: whole(fields.afterChunks ?? 0, `${path}.afterChunks`, 0) };
    case "hang":
      knownKeys(fields, ["type"], path);
      return { type: "hang" };
    default:
      throw new MockScriptError(
        `${path}.type`,
        `expected "http-error", "reset", "malformed" or "hang", got ${shown(fields.type)}`,
      );
  }
}

function object(value: unknown, path: string, expected: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new MockScriptError(path, `expected ${expected}, got ${shown(value)}`);
  return value as Record<string, unknown>;
}

function knownKeys(fields: Record<string, unknown>, known: readonly string[], path: string): void {
  for (const key of Object.keys(fields)) {
    if (!known.includes(key))
      throw new MockScriptError(`${path}.${key}`, `unknown field; the fields are ${known.join(", ")}`);
  }
}

function string(value: unknown, path: string): string {
  if (typeof value !== "string") throw new MockScriptError(path, `expected a string, got ${shown(value)}`);
  return value;
}

function whole(value: unknown, path: string, minimum: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < minimum)
    throw new MockScriptError(path, `expected a whole number of at least ${minimum}, got ${shown(value)}`);
  return value;
}

/**
 * How deep a `json` value may nest. JSON.parse reads any depth, but JSON.stringify recurses and overflows
 * the stack somewhere past a few thousand levels; a deeper answer can still be served as `text`.
 */
const MAX_JSON_DEPTH = 1000;

/** A `json` field's value as indented text (`indent` 0: compact), or an error naming the field. */
function jsonText(value: unknown, path: string, indent = 2): string {
  const depth = nestingDepth(value, MAX_JSON_DEPTH);
  if (depth > MAX_JSON_DEPTH)
    throw new MockScriptError(
      path,
      `nested more than ${MAX_JSON_DEPTH} levels deep, more than the mock writes out as JSON; ` +
        'give the answer as "text" (a string, sent as is) instead',
    );
  return JSON.stringify(value, null, indent);
}

/** How deeply arrays and objects nest in `value` (0 for a scalar), counting no further than `limit` + 1. */
function nestingDepth(value: unknown, limit: number): number {
  let deepest = 0;
  // An explicit stack: the value may be deeper than the call stack allows.
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop() as [unknown, number];
    if (typeof item !== "object" || item === null) continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > limit) return deepest;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return deepest;
}

/** A value as an error message shows it: JSON, cut after 200 characters; never a stack overflow. */
function shown(value: unknown): string {
  if (value === undefined) return "nothing";
  if (nestingDepth(value, 20) > 20)
    return `${Array.isArray(value) ? "an array" : "an object"} nested more than 20 levels deep`;
  const text = JSON.stringify(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
