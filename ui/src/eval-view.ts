import type { DevEvalResult } from "../../src/dev/dev-api.js";
import { ApiError, runEval } from "./api.js";
import { confirmRealRun } from "./confirm-real-run.js";
import { checkbox, h, render } from "./dom.js";
import { currentFunction, state } from "./state.js";

/** The rows value that means the function's test blocks rather than a dataset file. */
const TEST_BLOCKS = "(test blocks)";

/** What the view keeps while the page switches views. */
const form = {
  data: "",
  score: "",
  clients: "",
  modes: new Set(["prompt"]),
  fresh: false,
  running: false,
  result: undefined as DevEvalResult | undefined,
  failure: undefined as string | undefined,
};

/**
 * `sapling eval` in the page: a dataset (or the test blocks) × clients × output modes; then the table
 * the terminal prints and the HTML report `sapling eval --html` writes, framed as the server renders it.
 */
export function renderEvalView(root: HTMLElement): void {
  const fn = currentFunction();
  const choices = state.project?.eval ?? { profiles: [], datasets: [] };
  if (!fn) {
    render(root, h("p", { class: "muted" }, "Pick a function to evaluate."));
    return;
  }
  form.data ||= choices.datasets[0] ?? TEST_BLOCKS;
  form.score ||= choices.datasets[0]?.replace(/[^/]*$/, "score.json") ?? "";
  form.clients ||= choices.profiles.join(",");
  const again = () => renderEvalView(root);
  const input = (id: string, key: "data" | "score" | "clients", list?: string) =>
    h("input", {
      id,
      type: "text",
      value: form[key],
      spellcheck: "false",
      ...(list ? { list } : {}),
      oninput: (event: Event) => {
        form[key] = (event.target as HTMLInputElement).value;
      },
    });
  render(
    root,
    h(
      "p",
      { class: "muted" },
      `Evaluates ${fn.name} as sapling eval does: every row through every client × output mode, scored against its expected value. Clients named mock/… are the mock LLM server's answer profiles: they answer each row's expected value in a form real models use, and call no model.`,
    ),
    h(
      "div",
      { class: "row" },
      h("label", { for: "eval-data" }, "Rows"),
      input("eval-data", "data", "eval-datasets"),
      h(
        "datalist",
        { id: "eval-datasets" },
        [...choices.datasets, TEST_BLOCKS].map((name) => h("option", { value: name })),
      ),
    ),
    h(
      "div",
      { class: "row" },
      h("label", { for: "eval-score" }, "Scoring file"),
      input("eval-score", "score"),
    ),
    h(
      "div",
      { class: "row" },
      h("label", { for: "eval-clients" }, "Clients"),
      input("eval-clients", "clients"),
    ),
    h(
      "div",
      { class: "row", role: "group", "aria-label": "Output modes" },
      ["prompt", "tools", "native"].map((mode) =>
        checkbox(
          `eval-mode-${mode}`,
          form.modes.has(mode),
          (checked) => {
            if (checked) form.modes.add(mode);
            else form.modes.delete(mode);
          },
          mode,
        ),
      ),
      checkbox(
        "eval-fresh",
        form.fresh,
        (checked) => {
          form.fresh = checked;
        },
        "start over (otherwise recorded rows are not run again)",
      ),
    ),
    h(
      "div",
      { class: "row" },
      h(
        "button",
        { type: "button", id: "run-eval", disabled: form.running, onclick: () => void run(fn.name, again) },
        form.running ? "Evaluating…" : "Run the eval",
      ),
      form.result && h("span", { class: "muted" }, `records: ${form.result.records}`),
    ),
    form.failure && h("p", { class: "error", role: "alert", id: "eval-error" }, form.failure),
    form.result && h("pre", { id: "eval-table", class: "eval-table" }, form.result.table),
    form.result &&
      h("iframe", {
        id: "eval-report",
        title: "The eval's HTML report",
        src: form.result.reportUrl,
        sandbox: "",
      }),
  );
}

async function run(functionName: string, done: () => void, confirmed = false): Promise<void> {
  const list = (text: string) =>
    text
      .split(",")
      .map((item) => item.trim())
      .filter((item) => item !== "");
  form.running = true;
  form.failure = undefined;
  done();
  try {
    form.result = await runEval({
      function: functionName,
      ...(form.data.trim() === TEST_BLOCKS ? { tests: true } : { data: form.data.trim() }),
      ...(form.score.trim() ? { score: form.score.trim() } : {}),
      ...(list(form.clients).length > 0 ? { clients: list(form.clients) } : {}),
      modes: [...form.modes],
      fresh: form.fresh,
      ...(confirmed ? { confirm: true } : {}),
    });
  } catch (error) {
    if (error instanceof ApiError && error.code === "CONFIRM_REQUIRED" && !confirmed) {
      form.running = false;
      if (await confirmRealRun(`Evaluating ${functionName}`)) return run(functionName, done, true);
      done();
      return;
    }
    form.result = undefined;
    form.failure = error instanceof Error ? error.message : String(error);
  }
  form.running = false;
  done();
}
