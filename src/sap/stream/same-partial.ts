import { workMeter } from "../work-meter.js";
import { knownDifferent, sharedItems } from "./slot-store.js";

/**
 * Whether two partial values are equal. Unchanged subtrees keep their identity between chunks, so the
 * comparison stops at the first shared object: after a chunk that changed one leaf it walks only the path
 * to that leaf (and the entries of the containers on it), and a large container a coercer rebuilt because
 * it changed is known to differ without a walk (`knownDifferent`). A deep walk happens only when a
 * different reading of the answer was chosen, which is rare. Each entry compared is a step of `workMeter`.
 */
export function samePartial(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== "object" || typeof right !== "object" || left === null || right === null) return false;
  if (Array.isArray(left) !== Array.isArray(right) || knownDifferent(left, right)) return false;
  if (Array.isArray(left)) {
    const other = right as unknown[];
    if (left.length !== other.length) return false;
    for (let index = left.length - 1; index >= 0; index--) {
      workMeter.steps++;
      if (!samePartial(left[index], other[index])) return false;
    }
    return true;
  }
  const leftRecord = left as Record<string, unknown>;
  const rightRecord = right as Record<string, unknown>;
  // `for…in` rather than `Object.keys`: no key arrays allocated (this runs on every changed chunk), and
  // partial values are plain objects, whose enumerable keys are their own.
  let count = 0;
  for (const key in leftRecord) {
    if (!Object.hasOwn(rightRecord, key) || !samePartial(leftRecord[key], rightRecord[key])) {
      workMeter.steps += count + 1;
      return false;
    }
    count++;
  }
  workMeter.steps += 2 * count;
  for (const _key in rightRecord) count--;
  return count === 0;
}

/**
 * Whether `next` still shows everything `shown` did: null grew into a value, text grew at its end, a list
 * or object kept its items and fields and each grew. Shared subtrees stop the walk at once (the closed
 * sections of an answer, whose values are frozen), and so do the frozen items two builds of one list
 * share (`sharedItems`): a list growing item by item is compared from its last frozen item on. `grewText`
 * may know that a text grew without comparing it (the open section's, `Sections.grewText`).
 */
export function grewFrom(
  shown: unknown,
  next: unknown,
  grewText?: (shown: string, next: string) => boolean,
): boolean {
  if (shown === next || shown === null || shown === undefined) return true;
  if (typeof shown === "string")
    return typeof next === "string" && (grewText?.(shown, next) === true || next.startsWith(shown));
  if (typeof shown !== "object" || typeof next !== "object" || next === null) return false;
  if (Array.isArray(shown)) {
    if (!Array.isArray(next) || next.length < shown.length) return false;
    for (let index = sharedItems(shown, next); index < shown.length; index++) {
      workMeter.steps++;
      if (!grewFrom(shown[index], next[index], grewText)) return false;
    }
    return true;
  }
  if (Array.isArray(next)) return false;
  const after = next as Record<string, unknown>;
  for (const key in shown) {
    workMeter.steps++;
    if (!grewFrom((shown as Record<string, unknown>)[key], after[key], grewText)) return false;
  }
  return true;
}
