/**
 * What a partial may not do to the one before it (docs/sap.md, *What a partial shows*): text shown that
 * the next does not start with, a list or object that becomes something else, a list with fewer items,
 * a field or entry gone, a number, bool, enum or literal gone to null or to text, a `@stream.with_state`
 * state moved back. (Another number, bool, enum or literal may replace one: a key written again, the
 * last wins.) A push that does so announces it (`ReadingSwitch`); the stream tests and the fuzz hold
 * every other push to the rule.
 */
import { isRecord, STREAM_STATES } from "./check-partial-value.js";

/** No path may drop items or entries (what a stream itself asks). */
const NONE_MAY_DROP = () => false;

/**
 * Where `next` takes back what `previous` showed (the path and what changed), or undefined. `mayDrop`:
 * a list or object path under which items or entries may go (the tests pass final mode's dropped ones).
 */
export function stepBack(
  previous: unknown,
  next: unknown,
  path = "$",
  mayDrop: (path: string) => boolean = NONE_MAY_DROP,
): string | undefined {
  if (previous === null) return undefined;
  const show = (value: unknown) => JSON.stringify(value)?.slice(0, 120);
  if (typeof previous === "string") {
    return typeof next === "string" && next.startsWith(previous)
      ? undefined
      : `${path}: ${show(previous)} → ${show(next)}`;
  }
  if (Array.isArray(previous)) {
    if (!Array.isArray(next)) return `${path}: ${show(previous)} → ${show(next)}`;
    if (mayDrop(path)) return undefined;
    if (next.length < previous.length) return `${path}: ${previous.length} items → ${next.length}`;
    for (let index = 0; index < previous.length; index++) {
      const problem = stepBack(previous[index], next[index], `${path}[${index}]`, mayDrop);
      if (problem) return problem;
    }
    return undefined;
  }
  if (isRecord(previous)) {
    if (!isRecord(next)) return `${path}: ${show(previous)} → ${show(next)}`;
    if ("state" in previous && "value" in previous && "state" in next) {
      if (STREAM_STATES.indexOf(next.state as string) < STREAM_STATES.indexOf(previous.state as string))
        return `${path}: state ${previous.state} → ${next.state}`;
      return stepBack(previous.value, next.value, path, mayDrop);
    }
    for (const key of Object.keys(previous)) {
      if (!Object.hasOwn(next, key)) {
        if (mayDrop(path)) continue;
        return `${path}: ${key} went away`;
      }
      const problem = stepBack(previous[key], next[key], `${path}.${key}`, mayDrop);
      if (problem) return problem;
    }
    return undefined;
  }
  return next !== null && typeof next !== "string" && typeof next !== "object"
    ? undefined
    : `${path}: ${show(previous)} → ${show(next)}`;
}
