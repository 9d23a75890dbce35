import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { IrIndex } from "../../ir/index.js";
import { compile, parseTypeExpression } from "../../language/index.js";
import type { JsonishNode } from "./jsonish-node.js";
import { Sections } from "./read-sections.js";
import { type SectionNames, sectionNamesOf } from "./section-names.js";

const { ir } = compile({ "qa.baml": "class QA {\n  reasoning string\n  answer int\n}" });
if (!ir) throw new Error("the test schema does not compile");
const names = sectionNamesOf(parseTypeExpression("QA", ir).type!, new IrIndex(ir)) as SectionNames;

// A full collection on demand: whether a value is still held is then a fact, not a timing.
setFlagsFromString("--expose-gc");
const collect = runInNewContext("gc") as () => void;

/** Whether the value the open section showed after the first chunk is still held after `chunks` more. */
async function firstValueHeld(opening: string, chunks: number): Promise<boolean> {
  const sections = new Sections(names);
  sections.push(opening);
  sections.push("Two plus two ");
  const node = sections.node();
  if (node?.kind !== "object") throw new Error("the sections read as no object");
  const first = new WeakRef(node.entries[0]![1] as JsonishNode);
  for (let chunk = 0; chunk < chunks; chunk++) {
    sections.push("is four, as counting shows. ");
    sections.node();
  }
  // (A WeakRef read in this turn keeps its target to its end: collected from the next one.)
  await new Promise((resolve) => setImmediate(resolve));
  collect();
  const held = first.deref() !== undefined;
  sections.end();
  return held;
}

describe("Sections streaming a long line", () => {
  it("holds no value shown before the last ones (each read's text is not kept alive)", async () => {
    for (const opening of ["[[ ## reasoning ## ]]\n", "## Reasoning\n"]) {
      expect(await firstValueHeld(opening, 50)).toBe(false);
    }
  });
});
