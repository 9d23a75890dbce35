import type { DevRepairView } from "../../src/dev/dev-api.js";
import { h } from "./dom.js";
import type { Mark } from "./marked-text.js";

/** Each repair's span as a mark on the raw answer, told apart by its position in the list. */
export function repairMarks(repairs: readonly DevRepairView[]): Mark[] {
  return repairs.flatMap((repair, index) =>
    repair.span
      ? [
          {
            ...repair.span,
            className: "repair",
            label: `${repair.kind} at ${repair.path}: ${repair.detail}`,
            id: `repair-${index}`,
          },
        ]
      : [],
  );
}

/**
 * The repairs as a list; focusing or hovering one outlines its marks on the raw text (the list items are
 * focusable, so the keyboard reaches them too).
 */
export function repairList(repairs: readonly DevRepairView[]): HTMLElement {
  if (repairs.length === 0)
    return h("p", { class: "muted" }, "No repairs: the answer was exact JSON of the type.");
  const point = (id: string, on: boolean) => {
    for (const mark of document.querySelectorAll<HTMLElement>("mark[data-ids]"))
      if (mark.dataset.ids?.split(" ").includes(id)) mark.classList.toggle("active", on);
  };
  return h(
    "ol",
    { class: "repairs" },
    repairs.map((repair, index) =>
      h(
        "li",
        {
          tabindex: "0",
          "data-kind": repair.kind,
          onfocus: () => point(`repair-${index}`, true),
          onblur: () => point(`repair-${index}`, false),
          onmouseenter: () => point(`repair-${index}`, true),
          onmouseleave: () => point(`repair-${index}`, false),
        },
        h("code", {}, repair.kind),
        ` ${repair.path}: ${repair.detail}`,
        repair.span
          ? h("span", { class: "muted" }, ` (characters ${repair.span.start}–${repair.span.end})`)
          : null,
      ),
    ),
  );
}
