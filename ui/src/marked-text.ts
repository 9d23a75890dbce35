import { h } from "./dom.js";

/** A stretch of text to mark, with the class and label of its mark. */
export interface Mark {
  start: number;
  end: number;
  className: string;
  label: string;
  /** Identifies the marks of one item (a repair), so the list can point at them. */
  id?: string;
}

/**
 * `text` with the marked stretches wrapped in `<mark>`. Marks may nest or overlap (a fence around a fixed
 * key): the text is cut at every mark boundary, and each piece is marked by the innermost mark over it,
 * with `data-depth` saying how many different stretches cover it (marks of the same stretch count once:
 * a fence and a JSON fix of the same reading) and a title naming them all.
 */
export function markedText(text: string, marks: readonly Mark[]): HTMLElement {
  const cuts = new Set([0, text.length]);
  for (const mark of marks) {
    cuts.add(Math.max(0, Math.min(text.length, mark.start)));
    cuts.add(Math.max(0, Math.min(text.length, mark.end)));
  }
  const points = [...cuts].sort((left, right) => left - right);
  const pre = h("pre", { class: "marked" });
  for (let index = 0; index + 1 < points.length; index++) {
    const start = points[index]!;
    const end = points[index + 1]!;
    const piece = text.slice(start, end);
    const covering = marks.filter((mark) => mark.start <= start && mark.end >= end && mark.end > mark.start);
    if (covering.length === 0) {
      pre.append(piece);
      continue;
    }
    const innermost = covering.reduce((best, mark) =>
      mark.end - mark.start < best.end - best.start ? mark : best,
    );
    pre.append(
      h(
        "mark",
        {
          class: innermost.className,
          "data-depth": Math.min(new Set(covering.map((mark) => `${mark.start}:${mark.end}`)).size, 3),
          "data-ids": covering.map((mark) => mark.id ?? "").join(" "),
          title: covering.map((mark) => mark.label).join("\n"),
        },
        piece,
      ),
    );
  }
  return pre;
}
