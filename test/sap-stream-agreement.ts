/**
 * What it means for a stream to agree with final mode, shared by `test/sap-stream-invariant.test.ts` (every
 * conformance case) and the fuzz run (`bench/fuzz/fuzz-answers.ts`): the last partial against the final
 * value in its partial shape (`differs`), and each partial against the one before (`regression`).
 */
import type { Flag } from "../src/sap/index.js";
import { stepBack } from "../src/sap/stream/step-back.js";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Paths where final mode read something a stream may not show: the cut, dropped items and entries. A
 * value unwrapped from a one-element list or one-key object (`[\`9]` for `int`: the item is cut off), or
 * an object made of one cut value read as its only field (`ImpliedKey`), is held where it is shown too:
 * its flags point at the item, the value sits at the list's (the object's) path.
 */
export function heldBack(flags: readonly Flag[]): Set<string> {
  const held = new Set(
    flags
      .filter(
        (flag) => flag.kind === "Incomplete" || flag.kind === "ItemDropped" || flag.kind === "EntryDropped",
      )
      .map((flag) => flag.path),
  );
  // Innermost unwrap first, so one nested in another's item is held by then.
  const unwraps = flags
    .filter(
      (flag) => flag.kind === "ListToSingle" || flag.kind === "UnwrappedObject" || flag.kind === "ImpliedKey",
    )
    .map((flag) => flag.path)
    .sort((left, right) => right.length - left.length);
  for (const path of unwraps) {
    for (const at of held) {
      if (at.startsWith(`${path}[`) || at.startsWith(`${path}.`)) {
        held.add(path);
        break;
      }
    }
  }
  return held;
}

/** Whether the list or map at `path` lost an item or entry in final mode. */
export function dropsUnder(path: string, dropped: Set<string>): boolean {
  for (const at of dropped) {
    if (at.startsWith(path) && /^\[\d+\]$|^\.[^.[]+$|^\["[^"]*"\]$/.test(at.slice(path.length))) return true;
  }
  return false;
}

/** Flags that say final mode read its value from JSON (repaired, fenced, found in prose, gathered). */
const FROM_JSON = new Set(["FixedJson", "FromFence", "FromProse", "CombinedCandidates"]);

/**
 * Whether a value may still be growing where the answer ends, so the stream cannot show it yet: the answer
 * does not end by closing a container or a string (a closing fence line may still go on: ```` ```json ````;
 * a quote ending an answer whose container final mode had to close may be a quote inside the string),
 * or final mode read it from the plain text (`3}` for a float is the number 3 in prose, `value`, a scalar,
 * named in an answer that is a list: only `finish()` knows that no more text follows).
 */
export function endsOpen(raw: string, flags: readonly Flag[], value?: unknown): boolean {
  if (!/[}\]"']\s*$/.test(raw)) return true;
  // A quote that ends an answer cut off inside a container may yet be a quote inside its string (the
  // fixing parser reads `"He said "hi" to me"` as one string): only the end of the answer closes it.
  if (/["']\s*$/.test(raw) && flags.some((flag) => flag.kind === "FixedJson" && flag.path === "$"))
    return true;
  // A scalar out of an answer that is a container, not unwrapped from it: final mode read the answer's
  // text (`["POSITIVE", "NEGATIVX"]` names one value), which more text could still change.
  if (
    value !== null &&
    value !== undefined &&
    typeof value !== "object" &&
    /^\s*[[{]/.test(raw) &&
    !flags.some(
      (flag) => flag.path === "$" && (flag.kind === "ListToSingle" || flag.kind === "UnwrappedObject"),
    )
  )
    return true;
  if (flags.some((flag) => FROM_JSON.has(flag.kind))) return false;
  try {
    JSON.parse(raw);
    return false;
  } catch {
    return true;
  }
}

/**
 * Where `partial` (the last partial) differs from `expected` (the final value as a partial), allowing the
 * held-back paths to show null or to lack the item, and a value still open at the end (`endsOpen`) to
 * be null, or to be missing as the last item of a list or the last entry of a map (`{"a": 1,` may yet
 * become `{"a": 1, 2}`: the comma does not end the value until a key follows), and the text at the
 * very end (`last`: on the right-hand edge of the value) to lack what the answer (`raw`) ends with; undefined
 * when they agree.
 */
export function differs(
  partial: unknown,
  expected: unknown,
  path: string,
  held: Set<string>,
  openEnd: boolean,
  raw = "",
  last = true,
): string | undefined {
  if (held.has(path)) {
    if (partial === null || (isRecord(partial) && partial.state === "Incomplete")) return undefined;
    // Text cut off: the stream may still hold back half an escape, or show blanks final mode trims.
    if (typeof partial === "string" && typeof expected === "string") {
      if (expected.startsWith(partial) || partial.trimEnd() === expected.trimEnd()) return undefined;
    }
  }
  // A number, bool, enum or literal still being written where the answer ends: only `finish()` can tell
  // that it is whole.
  if (openEnd && partial === null && expected !== null && typeof expected !== "object") return undefined;
  // The text at the very end of the answer, still being written: a stream holds back what it has not
  // decided yet (`x,` for `string[]`: the comma may be a delimiter), so it may show a prefix of it.
  if (openEnd && last && typeof partial === "string" && typeof expected === "string") {
    // Only text that is the answer's own end: what the stream lacks is what the answer ends with.
    const lacking = expected.slice(partial.length).trimEnd();
    if (expected.startsWith(partial) && raw.trimEnd().endsWith(lacking)) return undefined;
  }
  if (Array.isArray(expected) || Array.isArray(partial)) {
    if (!Array.isArray(expected) || !Array.isArray(partial))
      return `${path}: ${JSON.stringify(partial)} ≠ ${JSON.stringify(expected)}`;
    // The last item may be a value still being written where the answer ends.
    const lastHeld = openEnd && partial.length === expected.length - 1;
    if (partial.length !== expected.length && !lastHeld) {
      // The stream may still lack (or still show) an item final mode cut off or dropped.
      if (!dropsUnder(path, held))
        return `${path}: ${partial.length} items ≠ ${expected.length}: ${JSON.stringify(partial).slice(0, 200)} ≠ ${JSON.stringify(expected).slice(0, 200)}`;
      return undefined;
    }
    for (let index = 0; index < partial.length; index++) {
      const atEnd = last && index === expected.length - 1;
      const problem = differs(
        partial[index],
        expected[index],
        `${path}[${index}]`,
        held,
        openEnd,
        raw,
        atEnd,
      );
      if (problem) return problem;
    }
    return undefined;
  }
  if (isRecord(expected) && isRecord(partial)) {
    const expectedKeys = Object.keys(expected);
    // As for a list: a map's last entry may be a value still being written where the answer ends.
    const lastKey = expectedKeys.at(-1);
    const lastHeld =
      openEnd &&
      lastKey !== undefined &&
      !Object.hasOwn(partial, lastKey) &&
      Object.keys(partial).length === expectedKeys.length - 1;
    const keys = new Set([...expectedKeys, ...Object.keys(partial)]);
    if (keys.size !== expectedKeys.length && !lastHeld && !dropsUnder(path, held))
      return `${path}: keys ${Object.keys(partial)} ≠ ${expectedKeys}`;
    for (const key of expectedKeys) {
      if (!Object.hasOwn(partial, key)) {
        if (held.has(`${path}.${key}`) || held.has(`${path}["${key}"]`)) continue;
        if (lastHeld && key === lastKey) continue;
        return `${path}: no key ${key}`;
      }
      const at = key === "value" || key === "state" ? path : `${path}.${key}`;
      const problem = differs(partial[key], expected[key], at, held, openEnd, raw, last && key === lastKey);
      if (problem) return problem;
    }
    return undefined;
  }
  return Object.is(partial, expected)
    ? undefined
    : `${path}: ${JSON.stringify(partial)} ≠ ${JSON.stringify(expected)}`;
}

/**
 * Where `next` goes back from `previous` (undefined when it only adds to it), by the stream's own rule
 * (`stepBack`), with final mode's dropped items and entries allowed to go.
 */
export function regression(
  previous: unknown,
  next: unknown,
  path: string,
  dropped: Set<string>,
): string | undefined {
  return stepBack(previous, next, path, (at) => dropsUnder(at, dropped));
}

/** Whether a push says another reading of the answer won (the one allowed step back). */
export function switchedReading(flags: readonly Flag[] | undefined): boolean {
  return (flags ?? []).some((flag) => flag.kind === "ReadingSwitch");
}
