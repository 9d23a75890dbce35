/**
 * Runs the AI SDK's partial-JSON prefix tests (`fixJson(prefix)` → completed JSON, in its
 * `packages/ai/src/util/fix-json.test.ts`) through Sapling's prefix mode and prints how many give the
 * same value. The AI SDK's file is not part of this repository: point the script at a local copy.
 *
 *   npx tsx scripts/fix-json-prefixes.ts <path to fix-json.test.ts> [--list]
 *
 * Each prefix is read by `parsePartial` as a JSON value of any shape (a recursive alias of every JSON
 * kind), which is what `fixJson` completes. A completion of `""` (nothing to show yet) is compared with a
 * partial of `null`. Differences are sorted by reason: Sapling shows a number, `true`/`false`/`null` only
 * once it is complete (a partial never shows a value that may still change: `12` of `123`), so prefixes
 * that end inside one are counted apart.
 */
import { readFileSync } from "node:fs";
import { compileSchema } from "../src/parse-with-schema.js";
import { parsePartial, SapParseError } from "../src/sap/index.js";
import { readJsString } from "./read-js-string.js";

const SCHEMA = "type JsonValue = string | int | float | bool | null | JsonValue[] | map<string, JsonValue>";

function pairs(text: string): { input: string; output: string }[] {
  const found: { input: string; output: string }[] = [];
  for (const match of text.matchAll(/fixJson\(\s*/g)) {
    const input = readJsString(text, match.index + match[0].length);
    if (!input) continue;
    const rest = /^\s*\)\s*,\s*/.exec(text.slice(input.end));
    if (!rest) continue;
    const output = readJsString(text, input.end + rest[0].length);
    if (output) found.push({ input: input.value, output: output.value });
  }
  return found;
}

/** Whether the prefix ends inside a number or a `true`/`false`/`null` word (after its last structure). */
function endsInsideScalar(text: string): boolean {
  return /(?:^|[\s,:[{])(?:-|-?\d[\d.eE+-]*|t|tr|tru|true|f|fa|fal|fals|false|n|nu|nul|null)$/.test(text);
}

function main(): void {
  const path = process.argv.slice(2).find((arg) => !arg.startsWith("--")) ?? process.env.FIX_JSON_TESTS;
  if (!path) throw new Error("Give the path of the AI SDK's fix-json.test.ts (a local copy, not committed).");
  const all = pairs(readFileSync(path, "utf8"));
  const { ir, type } = compileSchema(SCHEMA, "JsonValue");
  let same = 0;
  let scalarPending = 0;
  let emptyString = 0;
  const differences: string[] = [];
  for (const { input, output } of all) {
    const expected = output === "" ? null : JSON.parse(output);
    let got: unknown;
    try {
      got = parsePartial(input, type, ir).value;
    } catch (error) {
      if (!SapParseError.isInstance(error)) throw error;
      got = `error: ${(error as Error).message.split("\n")[0]}`;
    }
    if (JSON.stringify(got) === JSON.stringify(expected)) {
      same++;
      continue;
    }
    const pending = endsInsideScalar(input);
    // A string with no character read yet (`"`, or `"\u12`: half an escape is never shown) shows
    // nothing: null, where the AI SDK completes it to "".
    const nothingYet = !pending && expected === "" && got === null;
    if (pending) scalarPending++;
    if (nothingYet) emptyString++;
    differences.push(
      `${pending ? "scalar not complete yet: " : nothingYet ? "no character yet: " : "OPEN: "}${JSON.stringify(input).slice(0, 100)}\n` +
        `    fixJson: ${output.slice(0, 100)}\n    Sapling: ${JSON.stringify(got)?.slice(0, 100)}`,
    );
  }
  if (process.argv.includes("--list")) for (const line of differences) console.log(line);
  console.log(
    `${all.length} prefixes: Sapling's partial gives the same value for ${same}; ` +
      `${scalarPending} differ because the prefix ends inside a number or literal, which a partial does not read as one until it is complete; ` +
      `${emptyString} because a string with no character read yet shows nothing (null, not ""); ` +
      `open ${all.length - same - scalarPending - emptyString}`,
  );
}

main();
