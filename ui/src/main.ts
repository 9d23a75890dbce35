import { fetchProject, watchProject } from "./api.js";
import { renderDiagnosticsView } from "./diagnostics-view.js";
import { h, json, render } from "./dom.js";
import { renderEvalView } from "./eval-view.js";
import { renderParseView } from "./parse-view.js";
import { projectStatus } from "./project-status.js";
import { renderPromptView } from "./prompt-view.js";
import { renderRunView } from "./run-view.js";
import { renderCallSetup, renderSidebar } from "./sidebar.js";
import { state, type ViewName } from "./state.js";
import { renderTestsView } from "./tests-view.js";
import "./style.css";

const views: { name: ViewName; label: string }[] = [
  { name: "prompt", label: "Prompt" },
  { name: "run", label: "Run" },
  { name: "parse", label: "Parse explorer" },
  { name: "tests", label: "Tests" },
  { name: "eval", label: "Eval" },
  { name: "diagnostics", label: "Diagnostics" },
];

const element = (id: string) => document.getElementById(id) as HTMLElement;
const setup = h("section", { id: "setup", "aria-label": "Call setup" });
element("main").prepend(setup);

/** Picks a function (and a test): the editor gets the test's arguments, or the example ones. */
function pick(functionName: string, testName: string | undefined): void {
  const fn = state.project?.functions.find((item) => item.name === functionName);
  if (!fn) return;
  state.functionName = functionName;
  state.testName = testName;
  const test = fn.tests.find((item) => item.name === testName);
  state.argsText = json(test ? test.args : fn.exampleArgs);
  renderAll();
}

function renderTabs(): void {
  render(
    element("tabs"),
    views.map(({ name, label }) =>
      h(
        "button",
        {
          type: "button",
          role: "tab",
          id: `tab-${name}`,
          "aria-selected": String(state.view === name),
          "aria-controls": "view",
          onclick: () => {
            state.view = name;
            renderAll();
          },
          onkeydown: (event: Event) => moveBetweenTabs(event as KeyboardEvent, name),
        },
        label,
        name === "diagnostics" && (state.project?.diagnostics.errors ?? 0) > 0
          ? ` (${state.project?.diagnostics.errors})`
          : "",
      ),
    ),
  );
}

/** Left and right arrows move between tabs, as the ARIA tabs pattern has it (Tab reaches each too). */
function moveBetweenTabs(event: KeyboardEvent, name: ViewName): void {
  if (event.key !== "ArrowRight" && event.key !== "ArrowLeft") return;
  const at = views.findIndex((view) => view.name === name);
  const next = views[(at + (event.key === "ArrowRight" ? 1 : views.length - 1)) % views.length]!;
  state.view = next.name;
  renderAll();
  document.getElementById(`tab-${next.name}`)?.focus();
}

function renderBanner(): void {
  const diagnostics = state.project?.diagnostics;
  const banner = element("banner");
  if (!diagnostics || diagnostics.errors === 0) {
    render(banner);
    return;
  }
  render(
    banner,
    h(
      "p",
      { class: "banner-error" },
      `${state.project?.root} has ${diagnostics.errors} error${diagnostics.errors === 1 ? "" : "s"}; the page shows the last state that compiled. `,
      h(
        "button",
        {
          type: "button",
          class: "link",
          onclick: () => {
            state.view = "diagnostics";
            renderAll();
          },
        },
        "See the diagnostics",
      ),
    ),
  );
}

let previewTimer: ReturnType<typeof setTimeout> | undefined;

function renderView(): void {
  const view = element("view");
  view.setAttribute("aria-labelledby", `tab-${state.view}`);
  const withSetup = state.view === "prompt" || state.view === "run";
  setup.hidden = !withSetup;
  if (withSetup)
    renderCallSetup(setup, (what) => {
      // Typing in the editor re-renders the preview after a pause, not the editor (focus stays put); the
      // run view changes only with the mock switch (a finished run stays on screen while arguments change).
      clearTimeout(previewTimer);
      previewTimer = setTimeout(() => {
        if (state.view === "prompt") void renderPromptView(view);
        if (state.view === "run" && what === "mock") renderRunView(view);
      }, 250);
    });
  if (state.view === "prompt") void renderPromptView(view);
  else if (state.view === "run") renderRunView(view);
  else if (state.view === "parse") renderParseView(view);
  else if (state.view === "tests") renderTestsView(view);
  else if (state.view === "eval") renderEvalView(view);
  else renderDiagnosticsView(view);
}

function renderAll(): void {
  element("project-root").textContent = state.project
    ? `${state.project.root} · version ${state.project.version}`
    : "";
  renderBanner();
  renderSidebar(element("sidebar"), pick);
  renderTabs();
  renderView();
}

async function reload(): Promise<void> {
  const first = state.project === undefined;
  state.project = await fetchProject();
  if (first) state.useMock = state.project.mock;
  const fn =
    state.project.functions.find((item) => item.name === state.functionName) ?? state.project.functions[0];
  if (fn && fn.name !== state.functionName) {
    const test = fn.tests[0];
    pick(fn.name, test?.name);
  } else renderAll();
  const status = projectStatus(state.project);
  element("status").textContent = status.text;
  element("status").dataset.state = status.state;
  document.body.dataset.version = String(state.project.version);
}

watchProject((version) => {
  if (state.project?.version !== version) void reload();
});
void reload();
