import type { DevParseResult } from "../../src/dev/dev-api.js";
import { parseAnswer, replayAnswer } from "./api.js";
import { h, json, render } from "./dom.js";
import { markedText } from "./marked-text.js";
import { repairList, repairMarks } from "./repairs.js";
import { currentFunction, state } from "./state.js";

/** What the explorer keeps while the page switches views. */
const explorer = { type: "", text: "", chunkSize: 8 };
let replayTimer: ReturnType<typeof setInterval> | undefined;

/** Paste an answer, pick a type: the value with each repair marked on the text, or the error and its path. */
export function renderParseView(root: HTMLElement): void {
  explorer.type ||= currentFunction()?.returnType ?? "";
  const result = h("div", { id: "parse-result" });
  const type = h("input", {
    id: "parse-type",
    type: "text",
    value: explorer.type,
    spellcheck: "false",
    oninput: (event: Event) => {
      explorer.type = (event.target as HTMLInputElement).value;
    },
  });
  const text = h("textarea", {
    id: "parse-text",
    rows: 10,
    spellcheck: "false",
    placeholder: "Paste a model's answer: fenced, chatty, cut off…",
    oninput: (event: Event) => {
      explorer.text = (event.target as HTMLTextAreaElement).value;
    },
  });
  text.value = explorer.text;
  const chunk = h("input", {
    id: "chunk-size",
    type: "number",
    min: 1,
    value: explorer.chunkSize,
    oninput: (event: Event) => {
      explorer.chunkSize = Number((event.target as HTMLInputElement).value) || 8;
    },
  });
  render(
    root,
    h("div", { class: "row" }, h("label", { for: "parse-type" }, "Type"), type),
    h("label", { for: "parse-text" }, "Answer"),
    text,
    h(
      "div",
      { class: "row" },
      h("button", { type: "button", id: "parse", onclick: () => void parse(result) }, "Parse"),
      h("label", { for: "chunk-size" }, "Chunk size"),
      chunk,
      h(
        "button",
        { type: "button", id: "replay", class: "secondary", onclick: () => void replay(result) },
        "Replay chunk by chunk",
      ),
      state.lastAnswer &&
        h(
          "button",
          {
            type: "button",
            id: "use-last-answer",
            class: "secondary",
            onclick: () => {
              const last = state.lastAnswer!;
              explorer.text = last.text;
              explorer.type = last.type;
              renderParseView(root);
            },
          },
          "Use the last run's answer",
        ),
    ),
    result,
  );
}

async function parse(result: HTMLElement): Promise<void> {
  clearInterval(replayTimer);
  try {
    const parsed = await parseAnswer({ type: explorer.type, text: explorer.text });
    render(result, outcome(parsed, explorer.text));
  } catch (error) {
    render(result, errorMessage(error instanceof Error ? error.message : String(error)));
  }
}

/**
 * An error message as the page shows it: one with several lines (a code frame, whose caret points at a
 * column) keeps its lines and columns in a <pre>; a one-line message stays a paragraph.
 */
function errorMessage(text: string, id?: string): HTMLElement {
  const attributes = { class: "error", ...(id ? { id } : {}) };
  return text.includes("\n") ? h("pre", attributes, text) : h("p", attributes, text);
}

function outcome(parsed: DevParseResult, text: string): HTMLElement {
  if (!parsed.ok) {
    const error = parsed.error;
    return h(
      "div",
      { class: "parse-error" },
      errorMessage(error.message, "parse-error"),
      h(
        "dl",
        { class: "facts" },
        error.path !== null && [h("dt", {}, "path"), h("dd", {}, h("code", {}, error.path))],
        error.expected !== null && [h("dt", {}, "expected"), h("dd", {}, error.expected)],
        error.found !== null && [h("dt", {}, "found"), h("dd", {}, error.found)],
      ),
      h("h3", {}, "Raw text"),
      h("pre", {}, text),
    );
  }
  return h(
    "div",
    { class: "columns" },
    h(
      "section",
      {},
      h("h3", {}, "Raw text, repairs marked"),
      h("div", { id: "parse-marked" }, markedText(text, repairMarks(parsed.repairs))),
    ),
    h(
      "section",
      {},
      h("h3", {}, "Value"),
      h("pre", { id: "parse-value" }, json(parsed.value)),
      h("h3", {}, "Repairs"),
      repairList(parsed.repairs),
    ),
  );
}

async function replay(result: HTMLElement): Promise<void> {
  clearInterval(replayTimer);
  let replayed: Awaited<ReturnType<typeof replayAnswer>>;
  try {
    replayed = await replayAnswer({
      type: explorer.type,
      text: explorer.text,
      chunkSize: explorer.chunkSize,
    });
  } catch (error) {
    return render(result, errorMessage(error instanceof Error ? error.message : String(error)));
  }
  const steps = replayed.steps;
  const slider = h("input", {
    id: "replay-step",
    type: "range",
    min: 0,
    max: Math.max(0, steps.length - 1),
    value: 0,
    "aria-label": "replay step",
  });
  const label = h("p", { id: "replay-label", role: "status" });
  const seen = h("pre", { id: "replay-text", class: "stream" });
  const value = h("pre", { id: "replay-value", class: "stream" });
  const show = (index: number) => {
    const step = steps[index];
    if (!step) return;
    slider.value = String(index);
    label.textContent = `Chunk ${index + 1} of ${steps.length}: ${step.end} of ${explorer.text.length} characters`;
    label.dataset.step = String(index + 1);
    seen.textContent = explorer.text.slice(0, step.end);
    value.textContent = json(step.value);
  };
  slider.addEventListener("input", () => {
    clearInterval(replayTimer);
    show(Number(slider.value));
  });
  const pause = h(
    "button",
    { type: "button", class: "secondary", onclick: () => clearInterval(replayTimer) },
    "Pause",
  );
  render(
    result,
    h("div", { class: "row" }, slider, pause),
    label,
    h(
      "div",
      { class: "columns" },
      h("section", {}, h("h3", {}, "Text so far"), seen),
      h("section", {}, h("h3", {}, "Partial value"), value),
    ),
    h("h3", {}, "Final"),
    outcome(replayed.final, explorer.text),
  );
  let index = 0;
  show(0);
  replayTimer = setInterval(() => {
    index++;
    if (index >= steps.length) return clearInterval(replayTimer);
    show(index);
  }, 80);
}
