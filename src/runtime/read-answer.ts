/**
 * Reads one answer — its text, or its native tool calls — into the return type, by the output plan. Tool
 * calls, when an answer has any, are the answer in every mode (their arguments go through the
 * Schema-Aligned Parser like text, so cut or malformed arguments are repaired as answers are). When the
 * return type is a list of the tools' classes every call is one item; otherwise the first call is the
 * value and the others are reported as unused, never dropped silently. Streams get the same reading,
 * incrementally: one stream parser per call.
 */
import type { ToolCall, ToolCallDelta } from "../llm/index.js";
import { ToolCallAccumulator } from "../llm/index.js";
import {
  createStreamParser,
  type Flag,
  type ParseOptions,
  parseValue,
  SapParseError,
  type StreamParser,
  type StreamPush,
} from "../sap/index.js";
import { hasErrorMark, markError } from "../util/index.js";
import { type AnswerTarget, type OutputPlan, unwrapPath, unwrapValue } from "./output-plan.js";
import { viewReads } from "./view-reads.js";

/** A tool call of the answer and whether the value came from it. */
export interface ToolCallUse {
  call: ToolCall;
  used: boolean;
}

/** An answer read into the return type: the value, the parser's flags, and which tool calls it used. */
export interface AnswerReading {
  /** The value before `@check` wrapping. */
  value: unknown;
  flags: Flag[];
  toolCalls: ToolCallUse[];
}

/** Where an answer failed: the parser's error and the raw text it read (the text, or a call's arguments). */
export class AnswerReadError extends Error {
  override name = "AnswerReadError";
  constructor(
    message: string,
    readonly raw: string,
    readonly detail: unknown,
  ) {
    super(message);
    markError(this, "AnswerReadError");
  }

  /** `instanceof` that also works across two copies of the package. */
  static isInstance(value: unknown): value is AnswerReadError {
    return hasErrorMark(value, "AnswerReadError");
  }
}

/** Reads a whole answer. Throws `AnswerReadError`. */
export function readAnswer(
  text: string,
  toolCalls: readonly ToolCall[],
  plan: OutputPlan,
  options: ParseOptions,
): AnswerReading {
  if (toolCalls.length === 0) {
    const { value, flags } = parseTarget(text, plan.text, options, text);
    return { value, flags, toolCalls: [] };
  }
  const targets = toolCalls.map((call) => targetOf(call, plan));
  if (!plan.callsAreItems) {
    const [first, ...rest] = toolCalls as [ToolCall, ...ToolCall[]];
    const { value, flags } = parseCall(first, targets[0], options);
    return {
      value,
      flags,
      toolCalls: [{ call: first, used: true }, ...rest.map((call) => ({ call, used: false }))],
    };
  }
  // Every call is an item; one that does not fit is dropped with a flag, unless none fits (as for lists).
  const items: unknown[] = [];
  const flags: Flag[] = [];
  const uses: ToolCallUse[] = [];
  let firstError: AnswerReadError | undefined;
  for (const [position, call] of toolCalls.entries()) {
    try {
      const read = parseCall(call, targets[position], options);
      const path = `$[${items.length}]`;
      items.push(read.value);
      for (const flag of read.flags) flags.push({ ...flag, path: path + flag.path.slice(1) });
      uses.push({ call, used: true });
    } catch (error) {
      if (!(error instanceof AnswerReadError)) throw error;
      firstError ??= error;
      flags.push({
        kind: "ItemDropped",
        path: `$[${items.length}]`,
        detail: `tool call ${position + 1} (${call.name}) was dropped: ${error.message}`,
      });
      uses.push({ call, used: false });
    }
  }
  if (items.length === 0 && firstError !== undefined) throw firstError;
  return { value: items, flags, toolCalls: uses };
}

/** The target a call's arguments parse into; an unknown tool name fails. */
function targetOf(call: ToolCall, plan: OutputPlan): AnswerTarget | AnswerReadError {
  // Without tools of ours (prompt mode, tools the client passed itself), any call holds the return type.
  if (plan.tools.size === 0) return plan.text;
  const target = plan.tools.get(call.name);
  if (target !== undefined) return target;
  const known = [...plan.tools.keys()].join(", ");
  return new AnswerReadError(
    `the model called the tool ${JSON.stringify(call.name)}, which is not one of the tools sent (${known}).`,
    call.arguments,
    undefined,
  );
}

function parseCall(
  call: ToolCall,
  target: AnswerTarget | AnswerReadError | undefined,
  options: ParseOptions,
): { value: unknown; flags: Flag[] } {
  if (target === undefined || target instanceof AnswerReadError) {
    throw target ?? new AnswerReadError("no target for the tool call", call.arguments, undefined);
  }
  // A call with no arguments at all is an empty object, not an empty answer.
  const text = call.arguments.trim() === "" ? "{}" : call.arguments;
  return parseTarget(text, target, options, call.arguments, call.name);
}

function parseTarget(
  text: string,
  target: AnswerTarget,
  options: ParseOptions,
  raw: string,
  toolName?: string,
): { value: unknown; flags: Flag[] } {
  try {
    const result = parseValue(text, target.type, target.index, options);
    if (!target.wrapped) return { value: result.value, flags: result.flags };
    return {
      value: unwrapValue(result.value),
      flags: result.flags.map((flag) => ({ ...flag, path: unwrapPath(flag.path) })),
    };
  } catch (error) {
    if (!SapParseError.isInstance(error)) throw error;
    const where =
      toolName === undefined ? "" : `the arguments of the tool call ${JSON.stringify(toolName)}: `;
    throw new AnswerReadError(`${where}${error.message}`, raw, error);
  }
}

/**
 * Turns streamed tool-call pieces into partial values of the return type (before `@check` wrapping), the
 * way the text's stream parser does: `push` only advances the parsers (one per call), `read` builds the
 * partial and gives the parser's `StreamPush` (the first call's, or, when every call is an item, one
 * `changed` for the list).
 */
export class ToolCallPartials {
  readonly #calls = new ToolCallAccumulator();
  readonly #readers = new Map<number, { parser: StreamParser; read: () => StreamPush }>();
  #firstIndex: number | undefined;
  /** The list of items the last read that changed gave (when the calls are items). */
  #items: unknown = null;

  constructor(
    private readonly plan: OutputPlan,
    private readonly options: ParseOptions,
  ) {}

  /** Whether any tool call started (text partials then stop). */
  get started(): boolean {
    return this.#calls.size > 0;
  }

  /** Feeds the piece to its call's parser (no partial is built until `read`). */
  push(delta: ToolCallDelta): void {
    this.#firstIndex ??= delta.index;
    const call = this.#calls.push(delta);
    const reader = this.#readers.get(delta.index);
    if (reader !== undefined) {
      reader.parser.append(delta.argumentsDelta);
      return;
    }
    const target = this.plan.tools.size === 0 ? this.plan.text : this.plan.tools.get(call.name);
    // Unknown tools (or a name not sent yet) have no partials; the final reading reports them.
    if (target === undefined) return;
    const parser = createStreamParser(target.type, target.index, this.options);
    // The pieces that arrived before the name was known, this one included.
    parser.append(call.arguments);
    const read = () => parser.read();
    this.#readers.set(delta.index, { parser, read: target.wrapped ? viewReads(read, unwrapValue) : read });
  }

  /** The partial value now, and whether it changed since the previous read. */
  read(): StreamPush {
    if (!this.plan.callsAreItems) {
      const first = this.#firstIndex === undefined ? undefined : this.#readers.get(this.#firstIndex);
      return first === undefined ? { changed: false, value: null } : first.read();
    }
    const pushes = [...this.#readers.entries()]
      .sort(([left], [right]) => left - right)
      .map(([, reader]) => reader.read());
    if (!pushes.some((push) => push.changed)) return { changed: false, value: this.#items };
    this.#items = pushes.map((push) => push.value).filter((value) => value !== null && value !== undefined);
    return { changed: true, value: this.#items };
  }
}
