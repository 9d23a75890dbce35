/**
 * Where a parsed value first departs from the expected one, as one short line for the report's notes:
 * `work_history[0].achievements: expected ["a, b"], got ["a","b"]`.
 */
const shorten = (value: unknown): string => {
  const text = value === undefined ? "nothing" : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
};

export function firstDifference(actual: unknown, expected: unknown, path = ""): string | undefined {
  const here = path === "" ? "(root)" : path;
  if (typeof expected !== "object" || expected === null || typeof actual !== "object" || actual === null) {
    return Object.is(actual, expected)
      ? undefined
      : `${here}: expected ${shorten(expected)}, got ${shorten(actual)}`;
  }
  if (Array.isArray(expected) !== Array.isArray(actual)) {
    return `${here}: expected ${shorten(expected)}, got ${shorten(actual)}`;
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    for (let index = 0; index < Math.max(expected.length, actual.length); index += 1) {
      const found = firstDifference(actual[index], expected[index], `${path}[${index}]`);
      if (found !== undefined) {
        return expected.length === actual.length
          ? found
          : `${found} (${actual.length} items instead of ${expected.length})`;
      }
    }
    return undefined;
  }
  const actualRecord = actual as Record<string, unknown>;
  const expectedRecord = expected as Record<string, unknown>;
  for (const key of new Set([...Object.keys(expectedRecord), ...Object.keys(actualRecord)])) {
    const found = firstDifference(
      actualRecord[key],
      expectedRecord[key],
      path === "" ? key : `${path}.${key}`,
    );
    if (found !== undefined) return found;
  }
  return undefined;
}
