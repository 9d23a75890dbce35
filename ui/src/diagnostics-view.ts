import { h, render } from "./dom.js";
import { state } from "./state.js";

/** The compiler's messages with their code frames, as `sapling check` prints them. */
export function renderDiagnosticsView(root: HTMLElement): void {
  const diagnostics = state.project?.diagnostics;
  if (!diagnostics || (diagnostics.errors === 0 && diagnostics.warnings === 0)) {
    render(root, h("p", { id: "no-diagnostics" }, "No errors or warnings: every file compiles."));
    return;
  }
  render(
    root,
    h(
      "p",
      {},
      `${diagnostics.errors} error${diagnostics.errors === 1 ? "" : "s"}, ${diagnostics.warnings} warning${diagnostics.warnings === 1 ? "" : "s"}.`,
    ),
    h(
      "ul",
      { class: "diagnostic-list" },
      diagnostics.items.map((item) =>
        h(
          "li",
          { class: item.severity },
          h("code", {}, `${item.file}:${item.line}:${item.column}`),
          ` ${item.severity} ${item.code}: ${item.message}`,
        ),
      ),
    ),
    h(
      "pre",
      {
        id: "diagnostics-text",
        class: "diagnostics",
        tabindex: "0",
        "aria-label": "diagnostics with code frames",
      },
      diagnostics.text,
    ),
  );
}
