import type { DevAttemptView, DevRunEvents } from "../../src/dev/dev-api.js";
import { ApiError, startRun } from "./api.js";
import { confirmRealRun } from "./confirm-real-run.js";
import { checkbox, h, json, render } from "./dom.js";
import { markedText } from "./marked-text.js";
import { repairList, repairMarks } from "./repairs.js";
import { currentFunction, mockAnswerOf, parsedArgs, state } from "./state.js";

let running: AbortController | undefined;

/** The run view: what the mock answers (editable), Run, then the stream and its outcome. */
export function renderRunView(root: HTMLElement): void {
  const fn = currentFunction();
  if (!fn) {
    render(root, h("p", { class: "muted" }, "Pick a function."));
    return;
  }
  const output = h("div", { id: "run-output" });
  const answer = h("textarea", {
    id: "mock-answer",
    rows: 8,
    spellcheck: "false",
    oninput: (event: Event) => {
      state.mockAnswers[fn.name] = (event.target as HTMLTextAreaElement).value;
    },
  });
  answer.value = mockAnswerOf(fn);
  render(
    root,
    state.useMock
      ? h(
          "div",
          { class: "mock-setup" },
          h("label", { for: "mock-answer" }, "The mock answers (streamed in small chunks)"),
          answer,
          checkbox(
            "fail-first",
            state.failFirstAttempt,
            (checked) => {
              state.failFirstAttempt = checked;
            },
            "Fail the first attempt (HTTP 503), to see the retry/fallback chain",
          ),
        )
      : h(
          "p",
          { class: "warning" },
          "The mock is off: Run calls the real model with your API keys (you will be asked first).",
        ),
    h(
      "div",
      { class: "row" },
      h("button", { type: "button", id: "run", onclick: () => void run(output) }, `Run ${fn.name}`),
      h(
        "button",
        { type: "button", id: "stop", class: "secondary", onclick: () => running?.abort() },
        "Stop",
      ),
    ),
    output,
  );
}

async function run(output: HTMLElement, confirmed = false): Promise<void> {
  const fn = currentFunction();
  const parsed = parsedArgs();
  if (!fn) return;
  if ("error" in parsed) return render(output, h("p", { class: "error" }, parsed.error));
  if (!state.useMock && !confirmed && !(await confirmRealRun(`Running ${fn.name}`))) return;
  running?.abort();
  const controller = new AbortController();
  running = controller;
  const raw = h("pre", { id: "raw-text", class: "stream", "aria-label": "raw text as it arrives" });
  const partial = h("pre", { id: "partial-value", class: "stream", "aria-label": "typed partial value" });
  const status = h("p", { id: "run-status", role: "status" }, "Waiting for the first token…");
  const final = h("div", { id: "run-final" });
  let partials = 0;
  render(
    output,
    status,
    h(
      "div",
      { class: "columns" },
      h("section", {}, h("h3", {}, "Raw text"), raw),
      h("section", {}, h("h3", {}, "Typed partial"), partial),
    ),
    final,
  );
  try {
    await startRun(
      {
        function: fn.name,
        args: parsed.args,
        mock: state.useMock,
        ...(state.client ? { client: state.client } : {}),
        ...(state.testName ? { test: state.testName } : {}),
        ...(confirmed ? { confirm: true } : {}),
        ...(state.useMock ? { mockAnswer: mockAnswerOf(fn), failFirstAttempt: state.failFirstAttempt } : {}),
      },
      {
        partial: (event) => {
          partials++;
          raw.textContent = event.raw;
          partial.textContent = json(event.value);
          status.textContent = `Streaming: ${partials} partial value${partials === 1 ? "" : "s"} so far…`;
          status.dataset.partials = String(partials);
        },
        final: (event) => {
          status.textContent = `Done after ${partials} partial value${partials === 1 ? "" : "s"}.`;
          status.dataset.partials = String(partials);
          status.dataset.done = "final";
          state.lastAnswer = { text: event.raw, type: fn.returnType };
          // The marked text's own <pre> is unwrapped into this one (one box, not two).
          raw.replaceChildren(...markedText(event.raw, repairMarks(event.repairs)).childNodes);
          partial.textContent = json(event.value);
          render(final, finalSection(event));
        },
        error: (event) => {
          status.textContent = "The run failed.";
          status.dataset.done = "error";
          if (event.raw !== null) state.lastAnswer = { text: event.raw, type: fn.returnType };
          render(
            final,
            h("p", { class: "error" }, `${event.code}: ${event.message}`),
            event.raw !== null && [h("h3", {}, "The model's answer"), h("pre", {}, event.raw)],
            attemptsTable(event.attempts),
          );
        },
      },
      controller.signal,
    );
  } catch (error) {
    if (error instanceof ApiError && error.code === "CONFIRM_REQUIRED") {
      if (await confirmRealRun(`Running ${fn.name}`)) return run(output, true);
      return;
    }
    if (controller.signal.aborted) status.textContent = "Stopped.";
    else render(final, h("p", { class: "error" }, error instanceof Error ? error.message : String(error)));
  }
}

function finalSection(event: DevRunEvents["final"]): HTMLElement {
  const usage = event.usage;
  return h(
    "div",
    {},
    h("h3", {}, "Final value"),
    h("pre", { id: "final-value" }, json(event.value)),
    h(
      "dl",
      { class: "facts" },
      h("dt", {}, "latency"),
      h("dd", {}, event.latencyMs === null ? "–" : `${Math.round(event.latencyMs)} ms`),
      h("dt", {}, "tokens"),
      h("dd", {}, `${usage.inputTokens ?? "?"} in · ${usage.outputTokens ?? "?"} out`),
      event.cost !== null && [h("dt", {}, "cost"), h("dd", {}, `$${event.cost.toFixed(6)}`)],
    ),
    h("h3", {}, "Checks"),
    event.checks.length === 0
      ? h("p", { class: "muted" }, "The return type declares no @check.")
      : h(
          "ul",
          { class: "checks" },
          event.checks.map((check) =>
            h(
              "li",
              { class: check.passed ? "pass" : "fail" },
              `${check.passed ? "✓ passed" : "✗ failed"} ${check.name} at ${check.path}: {{ ${check.expression} }}`,
            ),
          ),
        ),
    h("h3", {}, "Repairs"),
    repairList(event.repairs),
    h("h3", {}, "Attempts"),
    attemptsTable(event.attempts),
  );
}

function attemptsTable(attempts: readonly DevAttemptView[]): HTMLElement {
  if (attempts.length === 0) return h("p", { class: "muted" }, "No attempt reached a client.");
  return h(
    "table",
    { class: "attempts" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        ["#", "client", "provider", "HTTP", "time", "tokens", "outcome"].map((name) =>
          h("th", { scope: "col" }, name),
        ),
      ),
    ),
    h(
      "tbody",
      {},
      attempts.map((attempt, index) =>
        h(
          "tr",
          { class: attempt.selected ? "selected" : "" },
          h("td", {}, index + 1),
          h("td", {}, attempt.client),
          h("td", {}, attempt.provider),
          h("td", {}, attempt.status ?? "–"),
          h("td", {}, attempt.durationMs === null ? "–" : `${Math.round(attempt.durationMs)} ms`),
          h(
            "td",
            {},
            attempt.usage
              ? `${attempt.usage.inputTokens ?? "?"} / ${attempt.usage.outputTokens ?? "?"}`
              : "–",
          ),
          h(
            "td",
            { class: attempt.error ? "error" : "" },
            attempt.error ?? (attempt.selected ? "used" : (attempt.finishReason ?? "ok")),
          ),
        ),
      ),
    ),
  );
}
