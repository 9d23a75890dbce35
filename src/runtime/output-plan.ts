/**
 * How one function's structured answer is asked for and read, per output mode (docs/decisions/0013):
 *
 * - `prompt` (BAML's way): the schema is in the prompt (`ctx.output_format`); the answer is text.
 * - `tools`: each class of the return type (a class, a union of classes, or a list of either) is sent as
 *   a tool — its `@@alias` or name, its `@@description`, its fields' JSON Schema (with their
 *   `@description`s) — and the chosen tool's arguments are the answer.
 * - `native`: the return type's JSON Schema is sent for the provider to enforce. A schema whose root is
 *   not an object (a list, a union) is wrapped as `{"value": …}`, since OpenAI's strict
 *   mode and forced tools take objects only; the answer is unwrapped after parsing.
 *
 * In every mode the Schema-Aligned Parser reads the answer, so a plain-text answer still parses and a cut
 * or malformed one is repaired or fails clearly. The plan says how an answer is read; the JSON Schema a
 * request sends is built from it with the call path (output-request.ts), so a page that only parses does
 * not ship the JSON Schema writer.
 */
import { type Class, type Ir, IrIndex, type Type } from "../ir/index.js";
import type { OutputMode } from "../llm/index.js";
import { hasErrorMark, markError } from "../util/index.js";

/** Where an answer (text, or a tool call's arguments) is parsed into. */
export interface AnswerTarget {
  type: Type;
  index: IrIndex;
  /** The value is the `value` field of a wrapper class (native mode, root not an object). */
  wrapped: boolean;
}

export interface OutputPlan {
  mode: OutputMode;
  /** The function's return type, unwrapped (what the request's schema describes). */
  returns: AnswerTarget;
  /** Tool name → what its arguments parse into (empty in `prompt` mode: any call holds the return type). */
  tools: ReadonlyMap<string, AnswerTarget>;
  /** What a text answer parses into. */
  text: AnswerTarget;
  /** The return type is a list of the tools' classes: every call is one item, in order. */
  callsAreItems: boolean;
  /** The item type of the list when `callsAreItems` (for partials). */
  itemType: Type | undefined;
  /** The provider enforces the schema (`native`), so `ctx.output_format` is left out of the prompt. */
  schemaEnforced: boolean;
}

/** The wrapper of a native answer whose root is not an object; the name cannot clash with a BAML class. */
const WRAPPER_CLASS = "sapling:Answer";
export const WRAPPER_FIELD = "value";

/**
 * The plan for `returnType` in `mode`. Throws `OutputPlanError` (a message saying what to change) when the
 * mode cannot serve the return type: `tools` needs classes.
 */
export function createOutputPlan(
  ir: Ir,
  index: IrIndex,
  functionName: string,
  returnType: Type,
  mode: OutputMode,
): OutputPlan {
  const plain: AnswerTarget = { type: returnType, index, wrapped: false };
  const base = { mode, returns: plain, text: plain, callsAreItems: false, itemType: undefined };
  if (mode === "prompt") return { ...base, tools: new Map(), schemaEnforced: false };
  if (mode === "tools") {
    const shape = toolClasses(returnType, index);
    if (shape === undefined) {
      throw new OutputPlanError(
        `${functionName} returns a type with no classes to send as tools; output mode "tools" needs a class, a union of classes or a list of them. Use output mode "native" or "prompt" for it.`,
      );
    }
    const tools = new Map<string, AnswerTarget>();
    for (const type of shape.classes) {
      tools.set(uniqueName(toolName(index.getClass(type.name)), tools), { type, index, wrapped: false });
    }
    const { itemType } = shape;
    return { ...base, tools, callsAreItems: itemType !== undefined, itemType, schemaEnforced: false };
  }
  const resolved = index.resolveAlias(returnType);
  const declared = resolved.kind === "class" ? index.getClass(resolved.name) : undefined;
  const name = toolName(declared ?? { name: functionName });
  const target = hasObjectRoot(returnType, index) ? plain : wrapperTarget(ir, returnType);
  // Anthropic and Bedrock answer a forced schema as a call of the one tool named `name`.
  return { ...base, tools: new Map([[name, target]]), text: target, schemaEnforced: true };
}

/**
 * Whether the return type's JSON Schema has an object at its root, so its answer needs no wrapper: a class,
 * or a union of that one class alone (`Foo | Foo`); not a map, a list, an optional or a union of several.
 */
function hasObjectRoot(returnType: Type, index: IrIndex): boolean {
  const arms = new Set<string>();
  const visit = (type: Type): boolean => {
    const resolved = index.resolveAlias(type);
    if (resolved.kind === "union") return resolved.options.every(visit);
    arms.add(resolved.kind === "class" ? resolved.name : "");
    return resolved.kind === "class";
  };
  return visit(returnType) && arms.size === 1;
}

/** The plan cannot serve the return type in this mode. */
export class OutputPlanError extends Error {
  constructor(...args: ConstructorParameters<typeof Error>) {
    super(...args);
    markError(this, "OutputPlanError");
  }

  override name = "OutputPlanError";

  /** `instanceof` that also works across two copies of the package. */
  static isInstance(value: unknown): value is OutputPlanError {
    return hasErrorMark(value, "OutputPlanError");
  }
}

/** The classes a tool-mode answer can be, and the list item type when every call is an item. */
function toolClasses(
  returnType: Type,
  index: IrIndex,
): { classes: Extract<Type, { kind: "class" }>[]; itemType: Type | undefined } | undefined {
  const resolved = stripOptional(index.resolveAlias(returnType), index);
  if (resolved.kind === "list") {
    const items = classesOf(resolved.item, index);
    return items === undefined ? undefined : { classes: items, itemType: resolved.item };
  }
  const classes = classesOf(resolved, index);
  return classes === undefined ? undefined : { classes, itemType: undefined };
}

function classesOf(type: Type, index: IrIndex): Extract<Type, { kind: "class" }>[] | undefined {
  const resolved = stripOptional(index.resolveAlias(type), index);
  if (resolved.kind === "class") return [resolved];
  if (resolved.kind !== "union") return undefined;
  const classes: Extract<Type, { kind: "class" }>[] = [];
  for (const option of resolved.options) {
    const arm = index.resolveAlias(option);
    if (arm.kind === "primitive" && arm.name === "null") continue;
    const nested = classesOf(arm, index);
    if (nested === undefined) return undefined;
    for (const found of nested) if (!classes.some((known) => known.name === found.name)) classes.push(found);
  }
  return classes.length > 0 ? classes : undefined;
}

function stripOptional(type: Type, index: IrIndex): Type {
  let current = type;
  while (current.kind === "optional") current = index.resolveAlias(current.inner);
  return current;
}

/**
 * A tool (or schema) name providers accept (`^[a-zA-Z0-9_-]{1,64}$`): the class's `@@alias` or name, other
 * characters replaced by `_`.
 */
function toolName(declared: Pick<Class, "name" | "alias">): string {
  const wanted = declared.alias ?? declared.name;
  const name = wanted.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);
  return name === "" ? "answer" : name;
}

function uniqueName(name: string, taken: ReadonlyMap<string, unknown>): string {
  if (!taken.has(name)) return name;
  for (let count = 2; ; count++) {
    const candidate = `${name.slice(0, 60)}_${count}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** The return type as the one field of a wrapper class, in a copy of the IR that declares it. */
function wrapperTarget(ir: Ir, returnType: Type): AnswerTarget {
  const wrapper: Class = {
    name: WRAPPER_CLASS,
    fields: [{ name: WRAPPER_FIELD, type: returnType }],
    dynamic: false,
    constraints: [],
  };
  const index = new IrIndex({ ...ir, classes: [...ir.classes, wrapper] });
  return { type: { kind: "class", name: WRAPPER_CLASS }, index, wrapped: true };
}

/** A parsed wrapper's value; a flag's path without the wrapper's field (`$.value[0]` → `$[0]`). */
export function unwrapPath(path: string): string {
  if (path === `$.${WRAPPER_FIELD}`) return "$";
  return path.startsWith(`$.${WRAPPER_FIELD}`) ? `$${path.slice(WRAPPER_FIELD.length + 2)}` : path;
}

export function unwrapValue(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value ?? null;
  return (value as Record<string, unknown>)[WRAPPER_FIELD] ?? null;
}
