import type { Field } from "../../../ir/index.js";
import type { CoerceContext } from "../../coerce/coerce-context.js";
import {
  type JsonishNode,
  nodeFromJson,
  type ObjectNode,
  type StringNode,
} from "../../lenient/jsonish-node.js";
import { parseJsonInString } from "../../lenient/parse-strict-json.js";

/**
 * The keys under which function-calling formats write a call's arguments, lowercase letters only:
 * OpenAI's `arguments` (a JSON string in its API, an object from many compatible servers), Llama's
 * `parameters`, Anthropic's `tool_use` block's `input`, Gemini's `args`, LangChain agents'
 * `action_input` / `tool_input`; and the keys of a call inside its envelope, read by the same rule
 * once more (OpenAI's tool call `{"type": "function", "function": {"name", "arguments"}}`, Gemini's
 * `{"functionCall": {"name", "args"}}`), and of a whole chat message holding the call, read once more
 * again (OpenAI's assistant message `{"role", "content": null, "tool_calls": [call]}`, Anthropic's
 * `{"role", "content": [text blocks, {"type": "tool_use", "input"}]}`, or a message whose `content` is
 * the object's JSON as a string).
 */
const ARGUMENT_KEYS: ReadonlySet<string> = new Set([
  "arguments",
  "parameters",
  "input",
  "args",
  "actioninput",
  "toolinput",
  "function",
  "functioncall",
  "toolcalls",
  "content",
]);

const ARGUMENT_INITIALS = "apitfc";

/** How many wrappers deep a class is read from: a chat message, a call's envelope, then the call. */
export const MAX_CALLS = 3;

/** Whether a key that names no field of the class is where a function call keeps its arguments. */
export function isArgumentsKey(key: string): boolean {
  // Most keys are rejected by their length or first letter alone (this runs on keys that name no field).
  if (key.length < 4 || key.length > 12 || !ARGUMENT_INITIALS.includes(key[0]!.toLowerCase())) return false;
  return ARGUMENT_KEYS.has(key.toLowerCase().replace(/[^a-z]/g, ""));
}

/** A function call's arguments, read as the class. */
export interface CallArguments {
  /** The key they were written under (`arguments`), for the flag. */
  key: string;
  /** The object they hold. */
  node: ObjectNode;
}

/**
 * A function call written where the class was expected (`{"name": "get_weather", "arguments": {"city":
 * "Paris"}}` for `class Call { city string }`): its arguments are the class's object, flagged
 * `UnwrappedObject`. The one rule the class coercer (`coerce-class.ts`) reads such a wrapper by, in
 * both modes. It applies when the object has an arguments member (`argument`, the last one
 * written under a key of `ARGUMENT_KEYS` that names no field) holding an object, or a finished string
 * whose whole text is a JSON object, and the object itself lacks a required field of the class or names
 * none of its fields (`named(index)`: the object has a key for `fields[index]`). An object that has every
 * required field is read as itself, so a class that declares `name` and `arguments` is never unwrapped.
 */
export function callArguments(
  argument: readonly [string, JsonishNode] | undefined,
  fields: readonly Field[],
  named: (index: number) => boolean,
  context: CoerceContext,
): CallArguments | undefined {
  if (argument === undefined) return undefined;
  const node = argumentObject(argument[1]);
  if (node === undefined) return undefined;
  let namesAny = false;
  let lacksRequired = false;
  for (let index = 0; index < fields.length; index++) {
    if (named(index)) namesAny = true;
    else if (context.missing(fields[index]!.type) === undefined) lacksRequired = true;
  }
  return namesAny && !lacksRequired ? undefined : { key: argument[0], node };
}

/** Decoded arguments strings, one node per string node: a stream reads the same node on every chunk. */
const decoded = new WeakMap<StringNode, ObjectNode | null>();

function argumentObject(node: JsonishNode): ObjectNode | undefined {
  if (node.kind === "object") return node;
  if (node.kind === "array") return onlyCall(node.items, node.complete);
  if (node.kind !== "string" || !node.complete) return undefined;
  let object = decoded.get(node);
  if (object === undefined) {
    const strict = parseJsonInString(node.value);
    const inner = strict === undefined ? undefined : nodeFromJson(strict.value);
    object = inner?.kind === "object" ? inner : null;
    decoded.set(node, object);
  }
  return object ?? undefined;
}

/**
 * The one call in a message's list (`tool_calls`, or `content` blocks of which one holds a call's
 * arguments), once the list is finished: a list of one object is that object; of several, the one with
 * a key that may hold arguments. Two calls are no reading (which one the answer means is not known).
 */
function onlyCall(items: readonly JsonishNode[], complete: boolean): ObjectNode | undefined {
  if (!complete) return undefined;
  const objects = items.filter((item): item is ObjectNode => item.kind === "object");
  if (objects.length === 1) return objects[0];
  const calls = objects.filter((object) => object.entries.some(([key]) => isArgumentsKey(key)));
  return calls.length === 1 ? calls[0] : undefined;
}
