/**
 * A list of records written as YAML's sequence of mappings (`- name: Ann⏎  age: 31⏎- name: Bob…`, read by
 * `src/sap/lenient/read-label-records.ts`) checked against the `yaml` package (a devDependency: the runtime
 * never loads it). fast-check writes two to four records of two to four keys each — scalars, and lists of
 * words under a key (indented under it, or at its own indentation) — at a bullet column of 0 or 2, with or
 * without a lead-in line or a ```yaml fence around them, and `parseValue` for a list of a class of
 * `JsonValue?` fields must give `yaml.parse`'s value (every record, each with its own keys), and so must a
 * stream fed the answer in random chunks, whose partials never drop a record they showed.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import type { Ir, Type } from "../src/ir/index.js";
import { compile, parseTypeExpression } from "../src/language/index.js";
import { createStreamParser, parseValue } from "../src/sap/index.js";

const KEYS = ["name", "city", "score", "tags"] as const;
const schema = `
type JsonValue = int | float | string | bool | null | JsonValue[] | map<string, JsonValue>
class Rec {
${KEYS.map((key) => `  ${key} JsonValue?`).join("\n")}
}
`;
const compiled = compile({ "records.baml": schema });
const ir = compiled.ir as Ir;
const listType = parseTypeExpression("Rec[]", ir).type as Type;

const word = fc.constantFrom("Ann", "Bob", "Oslo", "red", "blue green", "x", "Lima");
const value = fc.oneof(
  word.map((text) => ({ lines: [] as string[], head: text })),
  fc.integer({ min: 0, max: 999 }).map((n) => ({ lines: [] as string[], head: String(n) })),
  fc
    .tuple(fc.array(word, { minLength: 1, maxLength: 3 }), fc.boolean())
    .map(([items, under]) => ({ lines: items.map((item) => `${under ? "  " : ""}- ${item}`), head: "" })),
);
const record = fc
  .uniqueArray(fc.constantFrom(...KEYS), { minLength: 2, maxLength: 4 })
  .chain((keys) =>
    fc.tuple(fc.constant(keys), fc.array(value, { minLength: keys.length, maxLength: keys.length })),
  );

/** An answer: the records' lines at `column`, maybe after a lead-in line and in a fence. */
const answers = fc
  .tuple(fc.array(record, { minLength: 2, maxLength: 4 }), fc.constantFrom(0, 2), fc.boolean(), fc.boolean())
  .map(([records, column, leadIn, fenced]) => {
    const lines: string[] = [];
    for (const [keys, values] of records) {
      keys.forEach((key, at) => {
        const written = values[at]!;
        const prefix = " ".repeat(column) + (at === 0 ? "- " : "  ");
        lines.push(`${prefix}${key}:${written.head === "" ? "" : ` ${written.head}`}`);
        // (A list under the key: indented under it, or at the key's own column.)
        for (const line of written.lines) lines.push(`${" ".repeat(column + 2)}${line}`);
      });
    }
    const yaml = lines.join("\n");
    const body = fenced ? `\`\`\`yaml\n${yaml}\n\`\`\`` : yaml;
    return { yaml, text: leadIn ? `Here they are:\n${body}` : body };
  });

/** `yaml.parse`'s records as the class holds them: every declared key, null when absent. */
function asRecords(parsed: Record<string, unknown>[]): Record<string, unknown>[] {
  return parsed.map((item) => Object.fromEntries(KEYS.map((key) => [key, item[key] ?? null])));
}

describe("a YAML list of records, against the yaml package", () => {
  it("compiles its schema", () => {
    expect(compiled.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });

  it("parses and streams every generated list to yaml.parse's records, never dropping one it showed", () => {
    fc.assert(
      fc.property(answers, fc.integer({ min: 1, max: 1_000_000 }), ({ yaml, text }, seed) => {
        const expected = asRecords(parseYaml(yaml) as Record<string, unknown>[]);
        expect(parseValue(text, listType, ir).value, text).toEqual(expected);
        const stream = createStreamParser(listType, ir);
        let state = seed;
        let shown = 0;
        for (let at = 0; at < text.length; ) {
          state = (state * 1103515245 + 12345) % 2147483648;
          const size = 1 + (state % 13);
          const partial = stream.push(text.slice(at, at + size)).value as unknown[];
          expect(partial.length, text.slice(0, at + size)).toBeGreaterThanOrEqual(shown);
          shown = partial.length;
          at += size;
        }
        expect(stream.finish().value, text).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
