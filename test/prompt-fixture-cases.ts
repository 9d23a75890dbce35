/**
 * Reads `test/fixtures/prompt/**` case files. A case starts with `=== name`, then its BAML (empty = the
 * previous case's BAML), then `--- key: value` lines, then `--- expect` (or `--- error`) and the expected
 * text up to the next case. Trailing blank lines of the expected text are not part of it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface FixtureCase {
  file: string;
  name: string;
  baml: string;
  settings: Record<string, string>;
  expect?: string;
  error?: string;
}

export function readFixtureCases(folder: string): FixtureCase[] {
  const cases: FixtureCase[] = [];
  for (const file of readdirSync(folder)
    .filter((name) => name.endsWith(".txt"))
    .sort()) {
    let previousBaml = "";
    const text = readFileSync(join(folder, file), "utf8");
    for (const chunk of text.split(/^=== /m).slice(1)) {
      const lines = chunk.split("\n");
      const name = (lines.shift() ?? "").trim();
      const baml: string[] = [];
      const settings: Record<string, string> = {};
      let mode: "baml" | "settings" | "expect" | "error" = "baml";
      const body: string[] = [];
      for (const line of lines) {
        const setting =
          mode !== "expect" && mode !== "error" ? /^--- ([a-z_-]+)(?:: (.*))?$/.exec(line) : null;
        if (setting) {
          const key: string = setting[1] ?? "";
          if (key === "expect" || key === "error") mode = key;
          else {
            mode = "settings";
            settings[key] = setting[2] ?? "";
          }
          continue;
        }
        if (mode === "baml") baml.push(line);
        else if (mode === "expect" || mode === "error") body.push(line);
      }
      while (body.length > 0 && body[body.length - 1] === "") body.pop();
      const source = baml.join("\n").trim() === "" ? previousBaml : baml.join("\n");
      previousBaml = source;
      cases.push({
        file,
        name,
        baml: source,
        settings,
        ...(mode === "error" ? { error: body.join("\n") } : { expect: body.join("\n") }),
      });
    }
  }
  return cases;
}
