import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { compile, parseTypeExpression } from "../../language/index.js";
import { createStreamParser } from "./create-stream-parser.js";

const { ir } = compile({ "qa.baml": "class QA {\n  reasoning string\n  answer int\n}" });
if (!ir) throw new Error("the test schema does not compile");
const type = parseTypeExpression("QA", ir).type!;

// A full collection on demand: whether a value is still held is then a fact, not a timing.
setFlagsFromString("--expose-gc");
const collect = runInNewContext("gc") as () => void;

/**
 * Whether the partial a stream handed out after its first chunk of a section's line is still held by the
 * stream after `chunks` more chunks, each read (the caller keeps none of them).
 */
async function firstPartialHeld(opening: string, chunks: number): Promise<boolean> {
  const { stream, held } = started(opening);
  for (let chunk = 0; chunk < chunks; chunk++) stream.push("is four, as counting shows. ");
  // (A WeakRef read in this turn keeps its target to its end: collected from the next one.)
  await new Promise((resolve) => setImmediate(resolve));
  collect();
  const kept = held.deref() !== undefined;
  // (The stream is used after the collection: alive through it, as a consumer's stream is.)
  stream.push("is four.");
  return kept;
}

/** A stream given `opening` and a first chunk, and a weak reference to the partial it showed then. */
function started(opening: string) {
  const stream = createStreamParser(type, ir!);
  stream.push(opening);
  const first = stream.push("Two plus two ").value;
  if (typeof first !== "object" || first === null) throw new Error("the first partial is no object");
  // (Made here, so no frame of the caller holds the partial itself.)
  return { stream, held: new WeakRef(first) };
}

describe("a stream of a section's long line", () => {
  it("keeps no partial it handed out before the last ones (one kept per read would grow with the square)", async () => {
    for (const opening of ["[[ ## reasoning ## ]]\n", "## Reasoning\n"]) {
      expect(await firstPartialHeld(opening, 50)).toBe(false);
      // (And the one it shows last is held: the check can see a value kept.)
      expect(await firstPartialHeld(opening, 0)).toBe(true);
    }
  });
});
