/**
 * What the end of a stream may change in what its last partial showed: the rule `StreamParser.finish()`
 * applies to decide whether its result announces a step back (`ReadingSwitch`), and the one the fuzz run
 * and the stream tests count by (docs/sap.md, *What a partial may show and the final may change*).
 *
 * The final value (in its partial shape, `finalAsPartial`) may only add to the last partial, in these
 * ways, each only the end of the answer decides:
 * - `filled`: where the partial showed nothing (null, `""`, `[]`, `{}`, an object of such fields, a
 *   `{ value, state }` with no value), the final has a value: a trailing number, bool, enum or literal
 *   (whole only at the end), a field the end adds, a union the end decides;
 * - `grown`: text the partial showed is the start of the final text (an unclosed string, text at the end
 *   of the answer, which the end may extend with what the stream held back: a comma that may have been
 *   a delimiter, half an escape);
 * - `trimmed`: the final text is the partial's without blanks it ended with (final mode trims them);
 * - `added`: items, entries or fields after the ones shown (a list's last item, which was still being
 *   written);
 * - `advanced`: a `@stream.with_state` state moved on (`Incomplete` to `Complete`).
 * Anything else replaces something shown: an item or entry shown that the final drops (`drops`: final
 * mode flags it `ItemDropped` or `EntryDropped`, a cut-off item missing fields or one that does not
 * fit), or another value (`replaces`: a value other than the one shown, text that does not start with
 * the text shown).
 */

import { childPath } from "../coerce/coerce-result.js";
import type { Flag } from "../flags.js";
import { isRecord, STREAM_STATES } from "./check-partial-value.js";

/** How the end may extend what a partial showed (see the file's comment). */
export type EndExtension = "filled" | "grown" | "trimmed" | "added" | "advanced";

/** Where the final value replaces what was shown: the path (in the partial), what it showed, the final there. */
export interface EndReplacement {
  path: string;
  shown: unknown;
  /** The final value there; undefined where the final dropped the item or entry shown. */
  final: unknown;
}

/**
 * The final value against the last partial: equal, extending it in the allowed ways, dropping an item or
 * entry shown (and otherwise extending it), or replacing a value shown (the first such path).
 */
export type EndChange =
  | { kind: "same" }
  | { kind: "extends"; ways: ReadonlySet<EndExtension> }
  | ({ kind: "drops" } & EndReplacement)
  | ({ kind: "replaces" } & EndReplacement);

/**
 * How `final` (the final value in its partial shape, `finalAsPartial`) relates to `shown` (the last
 * partial a stream handed out); `flags` are the final result's (its `ItemDropped` and `EntryDropped`
 * paths say which items and entries shown it left out, so the ones after them line up).
 */
export function endChange(shown: unknown, final: unknown, flags: readonly Flag[] = []): EndChange {
  const dropped = new Set<string>();
  for (const flag of flags) {
    if (flag.kind === "ItemDropped" || flag.kind === "EntryDropped") dropped.add(flag.path);
  }
  const walk = new EndWalk(dropped);
  walk.compare(shown, final, "$");
  if (walk.replaced !== undefined) return { kind: "replaces", ...walk.replaced };
  if (walk.drop !== undefined) return { kind: "drops", ...walk.drop };
  return walk.ways.size === 0 ? { kind: "same" } : { kind: "extends", ways: walk.ways };
}

/** One comparison: the ways found, the first drop, and the first replacement (which ends the walk). */
class EndWalk {
  readonly ways = new Set<EndExtension>();
  drop: EndReplacement | undefined;
  replaced: EndReplacement | undefined;

  constructor(private readonly dropped: ReadonlySet<string>) {}

  /** Compares one value; false once a replacement is found (the walk stops). */
  compare(shown: unknown, final: unknown, path: string): boolean {
    if (Object.is(shown, final)) return true;
    if (showsNothing(shown)) {
      if (!showsNothing(final) || !sameShape(shown, final)) this.ways.add("filled");
      return true;
    }
    if (typeof shown === "string" && typeof final === "string") return this.text(shown, final, path);
    if (Array.isArray(shown) && Array.isArray(final)) return this.items(shown, final, path);
    if (isRecord(shown) && isRecord(final)) {
      if (isWithState(shown) && isWithState(final)) {
        const before = STREAM_STATES.indexOf(shown.state as string);
        const after = STREAM_STATES.indexOf(final.state as string);
        if (after < before) return this.replace(path, shown, final);
        if (after > before) this.ways.add("advanced");
        return this.compare(shown.value, final.value, path);
      }
      return this.fields(shown, final, path);
    }
    // A number, bool, enum or literal shown is whole: the final must be the same one.
    return this.replace(path, shown, final);
  }

  private text(shown: string, final: string, path: string): boolean {
    if (final.startsWith(shown)) {
      this.ways.add("grown");
      return true;
    }
    const kept = shown.trimEnd();
    if (!final.startsWith(kept)) return this.replace(path, shown, final);
    this.ways.add(final === kept ? "trimmed" : "grown");
    return true;
  }

  /**
   * Items in order. Where the final dropped items of this list (flagged at their paths), a shown item
   * that does not line up with the next final one is taken for a dropped one (a stream may or may not
   * have shown a dropped item, so the indices alone do not line them up).
   */
  private items(shown: unknown[], final: unknown[], path: string): boolean {
    let drops = 0;
    for (const at of this.dropped)
      if (at.startsWith(`${path}[`) && /^\[\d+\]$/.test(at.slice(path.length))) drops++;
    let at = 0;
    for (let index = 0; index < shown.length; index++) {
      const item = shown[index];
      const itemPath = childPath(path, index);
      const linesUp = at < final.length && (drops === 0 || this.agrees(item, final[at], itemPath));
      if (!linesUp && (drops > 0 || at >= final.length)) {
        if (showsNothing(item)) continue;
        if (drops === 0) return this.replace(itemPath, item, undefined);
        drops--;
        this.drop ??= { path: itemPath, shown: item, final: undefined };
        continue;
      }
      if (!this.compare(item, final[at++], itemPath)) return false;
    }
    if (at < final.length) this.ways.add("added");
    return true;
  }

  /** Whether the final value extends the shown one there (a trial walk, which changes nothing here). */
  private agrees(shown: unknown, final: unknown, path: string): boolean {
    const trial = new EndWalk(this.dropped);
    return trial.compare(shown, final, path) && trial.drop === undefined;
  }

  private fields(shown: Record<string, unknown>, final: Record<string, unknown>, path: string): boolean {
    for (const key of Object.keys(shown)) {
      const at = childPath(path, key);
      if (!Object.hasOwn(final, key)) {
        if (showsNothing(shown[key])) continue;
        if (!this.dropped.has(at)) return this.replace(at, shown[key], undefined);
        this.drop ??= { path: at, shown: shown[key], final: undefined };
        continue;
      }
      if (!this.compare(shown[key], final[key], at)) return false;
    }
    for (const key of Object.keys(final)) {
      if (!Object.hasOwn(shown, key)) {
        this.ways.add("added");
        break;
      }
    }
    return true;
  }

  private replace(path: string, shown: unknown, final: unknown): false {
    this.replaced = { path, shown, final };
    return false;
  }
}

/**
 * Shows nothing: null, `""`, `[]`, `{}`, an object all of whose fields show nothing, a
 * `{ value, state }` whose value shows nothing.
 */
function showsNothing(value: unknown): boolean {
  if (value === null || value === undefined || value === "") return true;
  if (Array.isArray(value)) return value.length === 0;
  if (!isRecord(value)) return false;
  if (isWithState(value)) return showsNothing(value.value);
  for (const key in value) if (!showsNothing(value[key])) return false;
  return true;
}

/** Both empty values of one shape (`[]` and `[]`, `{}` and an object of nulls are the same nothing). */
function sameShape(left: unknown, right: unknown): boolean {
  if (Array.isArray(left) || Array.isArray(right)) return Array.isArray(left) && Array.isArray(right);
  return isRecord(left) === isRecord(right) && typeof left === typeof right;
}

function isWithState(value: Record<string, unknown>): boolean {
  return "state" in value && "value" in value && typeof value.state === "string";
}
