import { describe, expect, it } from "vitest";
import { t } from "../../ir/index.js";
import { renderJunitReport } from "./render-junit-report.js";
import type { TestCaseResult } from "./run-test-case.js";

function result(
  fn: string,
  test: string,
  status: TestCaseResult["status"],
  extra: Partial<TestCaseResult> = {},
) {
  return {
    testCase: {
      id: `${fn}::${test}`,
      fn: { name: fn, params: [], returnType: t.string(), client: "Mock", prompt: "" },
      test: { name: test, functions: [fn], args: {}, constraints: [] },
    },
    status,
    durationMs: 1234,
    constraints: [],
    ...extra,
  } satisfies TestCaseResult;
}

describe("renderJunitReport", () => {
  it("groups by function, counts outcomes, escapes text and keeps the value or raw output", () => {
    const xml = renderJunitReport(
      [
        result("Extract", "Ok", "passed", { value: { name: "<Ada> & co" } }),
        result("Extract", "Bad", "failed", { reason: '@@assert({{ this.age > 18 }}) failed for "x"' }),
        result("Classify", "Down", "error", { reason: "HTTP 500\u0001", rawOutput: "garbage <here>" }),
        result("Classify", "Stopped", "cancelled", { reason: "interrupted" }),
      ],
      5000,
    );
    expect(xml).toContain(
      '<testsuites name="sapling test" tests="4" failures="1" errors="1" skipped="1" time="5.000">',
    );
    expect(xml).toContain(
      '<testsuite name="Extract" tests="2" failures="1" errors="0" skipped="0" time="2.468">',
    );
    expect(xml).toContain('<testcase classname="Extract" name="Ok" time="1.234">');
    expect(xml).toContain("&quot;name&quot;: &quot;&lt;Ada&gt; &amp; co&quot;");
    expect(xml).toContain('<failure message="@@assert({{ this.age &gt; 18 }}) failed for &quot;x&quot;">');
    expect(xml).toContain('<error message="HTTP 500">HTTP 500</error>');
    expect(xml).toContain("<system-out>garbage &lt;here&gt;</system-out>");
    expect(xml).toContain('<skipped message="interrupted"/>');
    expect(xml.match(/<testcase /g)).toHaveLength(4);
    expect(xml.match(/<\/testsuite>/g)).toHaveLength(2);
  });
});
