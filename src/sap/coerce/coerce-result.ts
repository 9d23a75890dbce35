import type { Flag, FlagKind } from "../flags.js";
import { FLAG_PENALTIES, flagAt } from "../flags.js";
import { type JsonishNode, nodeToJsonText } from "../lenient/jsonish-node.js";
import type { SapErrorCode } from "../sap-parse-error.js";
import { workMeter } from "../work-meter.js";

/** The outcome of one `@check` / `@assert`. */
export interface CheckResult {
  path: string;
  level: "check" | "assert";
  label?: string;
  expression: string;
  passed: boolean;
}

export interface CoerceSuccess {
  ok: true;
  value: unknown;
  flags: readonly Flag[];
  score: number;
  checks: readonly CheckResult[];
}

/** Why a node does not fit a type: data, worded later by `SapParseError`. */
export interface CoerceIssue {
  code: SapErrorCode;
  path: string;
  /** The expected type, printed (`int`, `enum Decision (STRONG_HIRE | HIRE)`). */
  expected: string;
  /** A short description of what was found. */
  found: string;
  /** One sentence on what went wrong, when more than "expected X, found Y" is useful. */
  detail?: string;
}

export interface CoerceFailure {
  ok: false;
  issue: CoerceIssue;
}

export type CoerceResult = CoerceSuccess | CoerceFailure;

/** The empty list of flags or checks, shared (frozen: never pushed to). */
export const NONE: readonly never[] = Object.freeze([]);

/** A value with no repairs. */
export function exact(value: unknown): CoerceSuccess {
  return { ok: true, value, flags: NONE, score: 0, checks: NONE };
}

/** What a flag points at in the answer: the node repaired (its `start`/`end`), when it was read from text. */
type FlagSite = JsonishNode | undefined;

/** A value with one repair (of `node`, whose text the flag points at). */
export function repaired(
  value: unknown,
  kind: FlagKind,
  path: string,
  detail: string,
  node?: FlagSite,
): CoerceSuccess {
  return {
    ok: true,
    value,
    flags: [flagAt(kind, path, detail, node)],
    score: FLAG_PENALTIES[kind],
    checks: NONE,
  };
}

/** The same result with one more flag (about `node`). */
export function addFlag(
  result: CoerceSuccess,
  kind: FlagKind,
  path: string,
  detail: string,
  node?: FlagSite,
): CoerceSuccess {
  return {
    ...result,
    flags: [...result.flags, flagAt(kind, path, detail, node)],
    score: result.score + FLAG_PENALTIES[kind],
  };
}

/** Gathers children's flags, scores and checks for a composite value (lists, classes, maps). */
export class ResultBuilder {
  flags: Flag[] | undefined;
  checks: CheckResult[] | undefined;
  score = 0;

  add(result: Pick<CoerceSuccess, "flags" | "checks" | "score">): void {
    if (result.flags.length > 0) {
      if (!this.flags) this.flags = [];
      for (const flag of result.flags) this.flags.push(flag);
    }
    if (result.checks.length > 0) {
      if (!this.checks) this.checks = [];
      for (const check of result.checks) this.checks.push(check);
    }
    this.score += result.score;
  }

  flag(kind: FlagKind, path: string, detail: string, node?: FlagSite): void {
    if (!this.flags) this.flags = [];
    this.flags.push(flagAt(kind, path, detail, node));
    this.score += FLAG_PENALTIES[kind];
  }

  build(value: unknown): CoerceSuccess {
    return { ok: true, value, flags: this.flags ?? NONE, score: this.score, checks: this.checks ?? NONE };
  }
}

/**
 * What a container's fold over its children gathers (list items, map entries): the score, and the flags
 * when they are gathered (a stream parser skips them; made when the first comes).
 */
export interface FoldedRepairs {
  score: number;
  flags: Flag[] | undefined;
}

/** Add one repair to a fold: its penalty always, the flag (about `node`) when `collect`. */
export function foldRepair(
  fold: FoldedRepairs,
  collect: boolean,
  kind: FlagKind,
  path: string,
  detail: string,
  node: FlagSite,
): void {
  fold.score += FLAG_PENALTIES[kind];
  if (!collect) return;
  if (fold.flags === undefined) fold.flags = [];
  fold.flags.push(flagAt(kind, path, detail, node));
}

export function failure(
  code: SapErrorCode,
  path: string,
  expected: string,
  node: JsonishNode | undefined,
  detail?: string,
): CoerceFailure {
  const issue: CoerceIssue = { code, path, expected, found: describeNode(node) };
  if (detail !== undefined) issue.detail = detail;
  return { ok: false, issue };
}

/** A short, readable description of a node for messages: `"maybe"`, `an object {"a":1,…}`, `nothing`. */
export function describeNode(node: JsonishNode | undefined): string {
  if (node === undefined) return "nothing";
  switch (node.kind) {
    case "string": {
      if (node.value.trim() === "") return "an empty string";
      // Only the start is shown: a long text (the whole answer, streamed) is not escaped in full.
      const shown = node.value.length > PREVIEW_SOURCE ? node.value.slice(0, PREVIEW_SOURCE) : node.value;
      workMeter.steps += shown.length;
      return preview(JSON.stringify(shown));
    }
    case "number":
      return `the number ${node.text}`;
    case "bool":
      return `the bool ${node.value}`;
    case "null":
      return "null";
    case "array":
      return `a list of ${node.items.length} item${node.items.length === 1 ? "" : "s"} ${nodeToJsonText(node, 60)}`;
    case "object":
      return `an object ${nodeToJsonText(node, 60)}`;
  }
}

/** Characters of a string enough for its preview (each gives at least one of the 77 shown). */
const PREVIEW_SOURCE = 80;

function preview(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}…"` : text;
}

/**
 * What a key adds to a path (`.name`, or `["odd key"]`), per key: field names are few and asked for on
 * every object (a class's paths are built for each of its objects), so each is tested once. Bounded:
 * map keys come from the answer.
 */
const keySteps = new Map<string, string>();
const KEY_STEPS_KEPT = 4096;

/** What an index adds to a path (`[3]`), per index: a list's items each build one (bounded, as keys are). */
const indexSteps: string[] = [];

/** Append a key or index to a JSONPath-like path. */
export function childPath(path: string, key: string | number): string {
  if (typeof key === "number") {
    if (!(key >= 0 && key < KEY_STEPS_KEPT && Number.isInteger(key))) return `${path}[${key}]`;
    for (let next = indexSteps.length; next <= key; next++) indexSteps.push(`[${next}]`);
    return path + indexSteps[key];
  }
  let step = keySteps.get(key);
  if (step === undefined) {
    step = /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
    if (keySteps.size < KEY_STEPS_KEPT) keySteps.set(key, step);
  }
  return path + step;
}

/** How many steps a path takes from the root (`$` is 0, `$.a[2]` is 2): how far a failed reading got. */
export function pathDepth(path: string): number {
  let depth = 0;
  let quoted = false;
  for (let index = 1; index < path.length; index++) {
    const char = path[index];
    if (char === '"' && path[index - 1] !== "\\") quoted = !quoted;
    else if (!quoted && (char === "." || char === "[")) depth++;
  }
  return depth;
}
