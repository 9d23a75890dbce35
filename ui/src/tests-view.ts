import type { DevTestResult } from "../../src/dev/dev-api.js";
import { ApiError, runTests } from "./api.js";
import { confirmRealRun } from "./confirm-real-run.js";
import { h, json, render } from "./dom.js";
import { mockAnswerOf, state } from "./state.js";

const results = new Map<string, DevTestResult>();
let failure: string | undefined;

/** Every test block: run one or all, pass or fail with each check and assert. */
export function renderTestsView(root: HTMLElement): void {
  const functions = state.project?.functions ?? [];
  const cases = functions.flatMap((fn) => fn.tests.map((test) => ({ fn, test })));
  if (cases.length === 0) {
    render(root, h("p", { class: "muted" }, "The project has no test blocks."));
    return;
  }
  const again = () => renderTestsView(root);
  render(
    root,
    h(
      "div",
      { class: "row" },
      h(
        "button",
        { type: "button", id: "run-all-tests", onclick: () => void run(undefined, again) },
        `Run all ${cases.length} tests`,
      ),
      h(
        "span",
        { class: "muted" },
        state.useMock ? "against the mock (the answers of the Run view)" : "against the real models",
      ),
    ),
    failure && h("p", { class: "error", role: "alert" }, failure),
    h(
      "table",
      { class: "test-results" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          ["test", "status", "time", "checks and asserts", ""].map((name) => h("th", { scope: "col" }, name)),
        ),
      ),
      h(
        "tbody",
        {},
        cases.map(({ test }) => {
          const result = results.get(test.id);
          return h(
            "tr",
            { "data-test": test.id },
            h("th", { scope: "row" }, test.id),
            h("td", { class: `status ${result?.status ?? ""}` }, result ? result.status : "not run"),
            h("td", {}, result ? `${Math.round(result.durationMs)} ms` : ""),
            h(
              "td",
              {},
              h(
                "ul",
                { class: "checks" },
                (result?.constraints ?? test.constraints.map((item) => ({ ...item, passed: undefined }))).map(
                  (item) =>
                    h(
                      "li",
                      { class: item.passed === undefined ? "" : item.passed ? "pass" : "fail" },
                      `${item.passed === undefined ? "·" : item.passed ? "✓" : "✗"} @@${item.level}(${item.label ? `${item.label}, ` : ""}{{ ${item.expression} }})`,
                    ),
                ),
              ),
              result?.reason && h("p", { class: "small" }, result.reason),
              result?.value !== undefined &&
                h("details", {}, h("summary", {}, "value"), h("pre", {}, json(result.value))),
            ),
            h(
              "td",
              {},
              h(
                "button",
                { type: "button", class: "secondary", onclick: () => void run([test.id], again) },
                "Run",
              ),
            ),
          );
        }),
      ),
    ),
  );
}

async function run(ids: string[] | undefined, done: () => void, confirmed = false): Promise<void> {
  if (
    !state.useMock &&
    !confirmed &&
    !(await confirmRealRun(ids ? `Running ${ids.join(", ")}` : "Running every test"))
  )
    return;
  failure = undefined;
  const mockAnswers = Object.fromEntries(
    (state.project?.functions ?? []).map((fn) => [fn.name, mockAnswerOf(fn)]),
  );
  try {
    const answer = await runTests({
      ...(ids ? { ids } : {}),
      mock: state.useMock,
      mockAnswers,
      ...(confirmed ? { confirm: true } : {}),
    });
    for (const result of answer.results) results.set(result.id, result);
  } catch (error) {
    if (error instanceof ApiError && error.code === "CONFIRM_REQUIRED") {
      if (await confirmRealRun("Running tests")) return run(ids, done, true);
      return;
    }
    failure = error instanceof Error ? error.message : String(error);
  }
  done();
}
