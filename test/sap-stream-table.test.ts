/**
 * The streaming conformance table: `test/fixtures/sap-stream/*.cases`, one test per case. Each case is an
 * answer with ⏸ marks; the partial value after the text up to each mark is stated. It must come out the
 * same one-shot (`parsePartial`) and streamed one character at a time (`createStreamParser`); the stream's
 * partials must never go backwards (unless the case says `monotonic: no`), and each must have the shape of
 * the type's partial type. `UPDATE_EXPECT=1` fills in the partials of a case that states none (review them).
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Ir } from "../src/ir/index.js";
import { compile, parseTypeExpression } from "../src/language/index.js";
import { checkPartialValue, createStreamParser, parsePartial, partialType } from "../src/sap/index.js";
import { MARK, readStreamCases, type StreamCase, writeStreamCases } from "./sap-stream-table-file.js";

const folder = join(import.meta.dirname, "fixtures", "sap-stream");
const update = process.env.UPDATE_EXPECT === "1";

const irs = new Map<string, Ir>();
function irFor(schema: string): Ir {
  let ir = irs.get(schema);
  if (!ir) {
    const source = readFileSync(join(folder, "schemas", `${schema}.baml`), "utf8");
    const compiled = compile({ "schema.baml": source });
    if (!compiled.ir)
      throw new Error(
        `${schema}.baml does not compile: ${compiled.diagnostics.map((d) => d.message).join("; ")}`,
      );
    ir = compiled.ir;
    irs.set(schema, ir);
  }
  return ir;
}

/** Whether `next` only adds to `previous`: text grows, lists grow, set values stay, states advance. */
function grows(previous: unknown, next: unknown): boolean {
  if (previous === null) return true;
  if (typeof previous === "string") return typeof next === "string" && next.startsWith(previous);
  if (Array.isArray(previous)) {
    return (
      Array.isArray(next) &&
      next.length >= previous.length &&
      previous.every((item, index) => grows(item, next[index]))
    );
  }
  if (typeof previous === "object") {
    if (typeof next !== "object" || next === null || Array.isArray(next)) return false;
    const before = previous as Record<string, unknown>;
    const after = next as Record<string, unknown>;
    if ("state" in before && "value" in before && "state" in after) {
      const order = ["Pending", "Incomplete", "Complete"];
      if (order.indexOf(after.state as string) < order.indexOf(before.state as string)) return false;
      return grows(before.value, after.value);
    }
    return Object.keys(before).every((key) => key in after && grows(before[key], after[key]));
  }
  return previous === next;
}

const loaded: { name: string; file: { preamble: string; cases: StreamCase[] } }[] = [];
let total = 0;

for (const name of readdirSync(folder)
  .filter((file) => file.endsWith(".cases"))
  .sort()) {
  const file = readStreamCases(readFileSync(join(folder, name), "utf8"), name);
  loaded.push({ name, file });
  total += file.cases.length;
  describe(name, () => {
    for (const entry of file.cases) {
      it(`${entry.name} (line ${entry.line})`, () => {
        const ir = irFor(entry.schema);
        const { type, diagnostics } = parseTypeExpression(entry.type, ir);
        if (!type) throw new Error(`bad type ${entry.type}: ${diagnostics.map((d) => d.message).join("; ")}`);
        const pieces = entry.marked.split(MARK);
        const text = pieces.join("");
        const marks: number[] = [];
        let at = 0;
        for (const piece of pieces.slice(0, -1)) {
          at += piece.length;
          marks.push(at);
        }
        const oneShot = marks.map((end) => parsePartial(text.slice(0, end), type, ir).value);
        if (update && entry.partials === undefined) entry.partials = oneShot;
        expect(entry.partials, "the case states no partials").toBeDefined();
        expect(entry.partials!.length, "one partial per ⏸").toBe(marks.length);
        marks.forEach((end, mark) => {
          expect(
            oneShot[mark],
            `one-shot partial at ⏸ ${mark + 1} (${JSON.stringify(text.slice(Math.max(0, end - 30), end))})`,
          ).toEqual(entry.partials![mark]);
        });
        const shape = partialType(type, ir);
        const parser = createStreamParser(type, ir);
        let previous: unknown = null;
        let mark = 0;
        for (let end = 1; end <= text.length; end++) {
          const { value } = parser.push(text[end - 1]!);
          expect(checkPartialValue(value, shape, ir), "partial has the partial type's shape").toBeUndefined();
          if (entry.monotonic) {
            expect(
              grows(previous, value),
              `went back at ${JSON.stringify(text.slice(Math.max(0, end - 30), end))}: ${JSON.stringify(previous)} → ${JSON.stringify(value)}`,
            ).toBe(true);
          }
          previous = value;
          while (marks[mark] === end) {
            expect(value, `streamed partial at ⏸ ${mark + 1}`).toEqual(entry.partials![mark]);
            mark++;
          }
        }
      });
    }
  });
}

describe("the streaming table", () => {
  it("has at least 60 cases", () => {
    expect(total).toBeGreaterThanOrEqual(60);
  });
});

afterAll(() => {
  if (!update) return;
  for (const { name, file } of loaded) writeFileSync(join(folder, name), writeStreamCases(file));
});
