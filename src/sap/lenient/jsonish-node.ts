/**
 * The value tree the lenient stage produces: JSON's kinds, each node marked complete or incomplete
 * (an unterminated string, a container closed only because the input ended, a number at the very end of
 * the text that more digits could have followed). Objects keep their entries in order, duplicates
 * included, so the coercer decides what a repeated key means.
 *
 * Nodes the fixing parser reads carry `start` and `end`: where the value's text begins and ends in the
 * parser's input (for a container, its brackets; an unclosed one ends where the input did). Repair flags
 * point at the answer through them. Nodes made otherwise (from `JSON.parse`, a split string) have none.
 */
export type JsonishNode = StringNode | NumberNode | BoolNode | NullNode | ObjectNode | ArrayNode;

export interface StringNode {
  kind: "string";
  value: string;
  complete: boolean;
  start?: number;
  end?: number;
}
export interface NumberNode {
  kind: "number";
  value: number;
  /** The digits as written (`1.0`, `1e3`), so a string target gets the model's own spelling. */
  text: string;
  complete: boolean;
  start?: number;
  end?: number;
}
export interface BoolNode {
  kind: "bool";
  value: boolean;
  complete: boolean;
  start?: number;
  end?: number;
}
export interface NullNode {
  kind: "null";
  complete: boolean;
  start?: number;
  end?: number;
}
export interface ObjectNode {
  kind: "object";
  entries: [key: string, value: JsonishNode][];
  complete: boolean;
  start?: number;
  end?: number;
  /** The text the fixing parser read it from (see `writtenText`); unset for nodes made otherwise. */
  source?: SourceText;
}
export interface ArrayNode {
  kind: "array";
  items: JsonishNode[];
  complete: boolean;
  start?: number;
  end?: number;
  source?: SourceText;
}

/**
 * The text a fixing parser read, in the pieces it arrived in (one piece in final mode, a stream's chunks
 * while a container stays open), each with its offset on the nodes' scale: the pieces are shared, never
 * copied, and joined only when a container's written text is asked for. Its fields are private, so node
 * trees of the same text read in other chunks still compare equal.
 */
export class SourceText {
  // (One piece is kept as itself until a second comes: final mode's text and a YAML block's short flow
  // lists make no arrays.)
  #pieces: string | string[];
  #starts: number | number[];

  constructor(piece: string, start: number) {
    this.#pieces = piece;
    this.#starts = start;
  }

  /** One more piece, starting at `start`. */
  add(piece: string, start: number): void {
    const pieces = this.#pieces;
    const starts = this.#starts;
    if (typeof pieces === "string") {
      this.#pieces = [pieces, piece];
      this.#starts = [starts as number, start];
    } else {
      pieces.push(piece);
      (starts as number[]).push(start);
    }
  }

  /** The text from `start` to `end`, or undefined when the pieces do not hold all of it. */
  slice(start: number, end: number): string | undefined {
    const pieces = typeof this.#pieces === "string" ? [this.#pieces] : this.#pieces;
    const starts = typeof this.#starts === "number" ? [this.#starts] : this.#starts;
    let text = "";
    for (let index = 0; index < pieces.length; index++) {
      const piece = pieces[index]!;
      const from = starts[index]!;
      if (from >= end) break;
      if (from + piece.length <= start) continue;
      text += piece.slice(Math.max(0, start - from), end - from);
    }
    return text.length === end - start ? text : undefined;
  }
}

/**
 * A complete container's text as the answer wrote it (brackets included), or undefined when the node was
 * not read from text (`JSON.parse`, a label line) or was cut off. The same however the text was split
 * into chunks, so a stream and final mode see the same text.
 */
export function writtenText(node: ObjectNode | ArrayNode): string | undefined {
  const { source, start, end } = node;
  if (!node.complete || source === undefined || start === undefined || end === undefined) return undefined;
  return source.slice(start, end);
}

/**
 * Whether an incomplete node is where the answer was cut off (rather than an ancestor of it): a scalar,
 * or a container whose last child is complete (cut between items). Only that node carries the
 * `Incomplete` flag, in final mode and in streams.
 */
export function isCutHere(node: JsonishNode): boolean {
  return lastChild(node)?.complete ?? true;
}

/** A container's last item or entry value (the one the answer may still be writing), else undefined. */
export function lastChild(node: JsonishNode): JsonishNode | undefined {
  if (node.kind === "array") return node.items.at(-1);
  if (node.kind === "object") return node.entries.at(-1)?.[1];
  return undefined;
}

export function stringNode(value: string, complete = true): StringNode {
  return { kind: "string", value, complete };
}

/**
 * Convert a `JSON.parse` result into nodes (all complete). Iterative, so a 100,000-deep document does not
 * overflow the call stack; containers deeper than `maxDepth` become empty incomplete placeholders (as in
 * the fixing parser: nothing can use them, and building them would only cost).
 */
export function nodeFromJson(value: unknown, maxDepth = 2000): JsonishNode {
  const root = shallowNode(value);
  const pending: [JsonishNode, unknown, number][] = [[root, value, 1]];
  while (pending.length > 0) {
    const [node, source, depth] = pending.pop()!;
    if (depth > maxDepth && (node.kind === "array" || node.kind === "object")) {
      node.complete = false;
      continue;
    }
    if (node.kind === "array") {
      for (const item of source as unknown[]) {
        const child = shallowNode(item);
        node.items.push(child);
        if (child.kind === "array" || child.kind === "object") pending.push([child, item, depth + 1]);
      }
    } else if (node.kind === "object") {
      const record = source as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        const item = record[key];
        const child = shallowNode(item);
        node.entries.push([key, child]);
        if (child.kind === "array" || child.kind === "object") pending.push([child, item, depth + 1]);
      }
    }
  }
  return root;
}

function shallowNode(value: unknown): JsonishNode {
  if (value === null) return { kind: "null", complete: true };
  switch (typeof value) {
    case "string":
      return { kind: "string", value, complete: true };
    case "number":
      return { kind: "number", value, text: String(value), complete: true };
    case "boolean":
      return { kind: "bool", value, complete: true };
    default:
      return Array.isArray(value)
        ? { kind: "array", items: [], complete: true }
        : { kind: "object", entries: [], complete: true };
  }
}

/**
 * Print a node as compact JSON (iteratively). Used when a string target receives an object or array, and
 * to describe what was found in error messages; `limit` stops early for previews.
 */
export function nodeToJsonText(node: JsonishNode, limit = Number.POSITIVE_INFINITY): string {
  let out = "";
  // A work list of nodes and literal text pieces, so nesting depth never reaches the call stack.
  const work: (JsonishNode | string)[] = [node];
  while (work.length > 0 && out.length <= limit) {
    const next = work.pop()!;
    if (typeof next === "string") {
      out += next;
      continue;
    }
    switch (next.kind) {
      case "string":
        out += JSON.stringify(next.value);
        break;
      case "number":
        out += next.text;
        break;
      case "bool":
        out += String(next.value);
        break;
      case "null":
        out += "null";
        break;
      case "array": {
        out += "[";
        work.push("]");
        // (Each child writes a character at least: past `limit`, the rest are never reached.)
        const count = Math.min(next.items.length, limit - out.length + 1);
        for (let index = count - 1; index >= 0; index--) {
          work.push(next.items[index]!);
          if (index > 0) work.push(",");
        }
        break;
      }
      case "object": {
        out += "{";
        work.push("}");
        const count = Math.min(next.entries.length, limit - out.length + 1);
        for (let index = count - 1; index >= 0; index--) {
          const [key, value] = next.entries[index]!;
          work.push(value);
          work.push(`${JSON.stringify(key)}:`);
          if (index > 0) work.push(",");
        }
        break;
      }
    }
  }
  return out.length > limit ? `${out.slice(0, limit)}…` : out;
}

/**
 * Nodes a reader makes for one read of a growing text, a new one at the next: the sections reading's object
 * and its open section's value (a long line's text, once per read). What a stream's coercer learns of such
 * a node is kept only while something still holds the node (`SlotStore`), not for the stream's life.
 */
const ONE_READ = new WeakSet<JsonishNode>();

/** Mark `node` as made for one read (see `ONE_READ`); returns it. */
export function forOneRead<T extends JsonishNode>(node: T): T {
  ONE_READ.add(node);
  return node;
}

export function isForOneRead(node: JsonishNode): boolean {
  return ONE_READ.has(node);
}

/** A string cut right after its opening quote: nothing of it written yet. */
export function isOpenedEmptyString(node: JsonishNode): boolean {
  return node.kind === "string" && !node.complete && node.value === "";
}
