import type { Ir, LlmFunction, Test } from "../../ir/index.js";

/** One runnable case: a test block applied to one of its functions (`Function::Test`). */
export interface TestCase {
  /** `Function::Test`, the name patterns match and reports show. */
  id: string;
  fn: LlmFunction;
  test: Test;
}

/**
 * Every `Function::Test` pair of the project, in source order, filtered as `baml-cli test` does: a case
 * runs when it matches some `--include` pattern (or none is given) and no `--exclude` pattern. A pattern
 * `Fn::Test` matches both halves (`*` and `?` are wildcards; an empty half matches anything, so `Fn::`
 * selects a function's tests and `::Test` a test in every function); a pattern without `::` matches the
 * function name or the test name.
 */
export function selectTestCases(
  ir: Ir,
  filters: { include: readonly string[]; exclude: readonly string[] },
): TestCase[] {
  const functions = new Map(ir.functions.map((fn) => [fn.name, fn]));
  const cases: TestCase[] = [];
  for (const test of ir.tests) {
    for (const name of test.functions) {
      const fn = functions.get(name);
      if (fn) cases.push({ id: `${name}::${test.name}`, fn, test });
    }
  }
  const include = filters.include.map(compilePattern);
  const exclude = filters.exclude.map(compilePattern);
  return cases.filter(
    (item) =>
      (include.length === 0 || include.some((matches) => matches(item))) &&
      !exclude.some((matches) => matches(item)),
  );
}

function compilePattern(pattern: string): (item: TestCase) => boolean {
  const separator = pattern.indexOf("::");
  if (separator === -1) {
    const name = glob(pattern);
    return (item) => name.test(item.fn.name) || name.test(item.test.name);
  }
  const fn = glob(pattern.slice(0, separator) || "*");
  const test = glob(pattern.slice(separator + 2) || "*");
  return (item) => fn.test(item.fn.name) && test.test(item.test.name);
}

function glob(pattern: string): RegExp {
  const body = [...pattern]
    .map((char) => (char === "*" ? ".*" : char === "?" ? "." : char.replace(/[.+^${}()|[\]\\]/g, "\\$&")))
    .join("");
  return new RegExp(`^${body}$`);
}
