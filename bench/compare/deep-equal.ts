/**
 * Strict structural equality for parse results against expected values: same JSON kinds, numbers equal
 * (`===`), same key sets (a missing key is not the same as `null`), arrays in order. Key order is ignored.
 */
export function deepEqual(actual: unknown, expected: unknown): boolean {
  if (actual === expected) return true;
  if (typeof actual !== "object" || typeof expected !== "object" || actual === null || expected === null) {
    return false;
  }
  if (Array.isArray(actual) !== Array.isArray(expected)) return false;
  if (Array.isArray(actual) && Array.isArray(expected)) {
    return (
      actual.length === expected.length && actual.every((item, index) => deepEqual(item, expected[index]))
    );
  }
  const actualRecord = actual as Record<string, unknown>;
  const expectedRecord = expected as Record<string, unknown>;
  const actualKeys = Object.keys(actualRecord).filter((key) => actualRecord[key] !== undefined);
  const expectedKeys = Object.keys(expectedRecord);
  return (
    actualKeys.length === expectedKeys.length &&
    expectedKeys.every(
      (key) => Object.hasOwn(actualRecord, key) && deepEqual(actualRecord[key], expectedRecord[key]),
    )
  );
}
