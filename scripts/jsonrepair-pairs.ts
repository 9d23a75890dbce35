/**
 * Runs jsonrepair's test pairs (`expect(jsonrepair(input)).toBe(output)` in its `src/index.test.ts`)
 * through Sapling's fixing parser and prints how many give the same value. jsonrepair's file is not
 * part of this repository: point the script at a local copy.
 *
 *   npx tsx scripts/jsonrepair-pairs.ts <path to jsonrepair's index.test.ts> [--list]
 *
 * Only pairs whose repaired output is an object or a list are compared (the fixing parser reads
 * containers; a bare word is a coercer's business, not a repair). Values are compared, not text.
 */
import { readFileSync } from "node:fs";
import { fixingParse, type JsonishNode } from "../src/sap/index.js";
import { readJsString } from "./read-js-string.js";

/** A node as a plain value (a repeated key: the later entry, as `JSON.parse` does). */
function plain(node: JsonishNode): unknown {
  switch (node.kind) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const [key, value] of node.entries)
        Object.defineProperty(out, key, {
          value: plain(value),
          enumerable: true,
          configurable: true,
          writable: true,
        });
      return out;
    }
    case "array":
      return node.items.map(plain);
    case "null":
      return null;
    default:
      return node.value;
  }
}

function pairs(text: string): { input: string; output: string }[] {
  const found: { input: string; output: string }[] = [];
  for (const match of text.matchAll(/expect\(jsonrepair\(/g)) {
    const input = readJsString(text, match.index + match[0].length);
    if (!input || !text.startsWith(")).toBe(", input.end)) continue;
    const output = readJsString(text, input.end + ")).toBe(".length);
    if (output && text[output.end] === ")") found.push({ input: input.value, output: output.value });
  }
  return found;
}

function main(): void {
  const path = process.argv.slice(2).find((arg) => !arg.startsWith("--")) ?? process.env.JSONREPAIR_TESTS;
  if (!path)
    throw new Error("Give the path of jsonrepair's src/index.test.ts (a local copy, not committed).");
  const all = pairs(readFileSync(path, "utf8"));
  let compared = 0;
  let same = 0;
  const differences: string[] = [];
  for (const { input, output } of all) {
    let expected: unknown;
    try {
      expected = JSON.parse(output);
    } catch {
      continue;
    }
    if (expected === null || typeof expected !== "object") continue;
    compared++;
    const root = fixingParse(input)[0];
    const got = root ? plain(root.node) : undefined;
    if (JSON.stringify(got) === JSON.stringify(expected)) same++;
    else
      differences.push(
        `${JSON.stringify(input).slice(0, 100)}\n    jsonrepair: ${output.slice(0, 100)}\n    Sapling:    ${JSON.stringify(got)?.slice(0, 100)}`,
      );
  }
  if (process.argv.includes("--list")) for (const line of differences) console.log(line);
  console.log(
    `${all.length} pairs, ${compared} with an object or list: Sapling's fixing parser gives the same value for ${same}, differs on ${compared - same}`,
  );
}

main();
