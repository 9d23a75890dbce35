/**
 * Whether two partial values are equal. Unchanged subtrees keep their identity between chunks, so the
 * comparison stops at the first shared object: after a chunk that changed one leaf it walks only the path
 * to that leaf (and the entries of the containers on it). A deep walk happens only when a different
 * reading of the answer was chosen, which is rare.
 */
export function samePartial(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== "object" || typeof right !== "object" || left === null || right === null) return false;
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  if (Array.isArray(left)) {
    const other = right as unknown[];
    if (left.length !== other.length) return false;
    for (let index = left.length - 1; index >= 0; index--) {
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
    if (!Object.hasOwn(rightRecord, key) || !samePartial(leftRecord[key], rightRecord[key])) return false;
    count++;
  }
  for (const _key in rightRecord) count--;
  return count === 0;
}
