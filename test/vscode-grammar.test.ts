/**
 * The VS Code extension's TextMate grammar (editors/vscode/syntaxes/baml.tmLanguage.json), run with the
 * tokenizer VS Code uses (vscode-textmate over the Oniguruma engine) on the example project's files and
 * a showcase of every construct. Each file's tokens are kept as a readable snapshot beside the showcase:
 * `npx vitest run test/vscode-grammar.test.ts -u` rewrites them after a deliberate grammar change.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadWASM, OnigScanner, OnigString } from "vscode-oniguruma";
import { type IGrammar, INITIAL, parseRawGrammar, Registry } from "vscode-textmate";

const root = resolve(import.meta.dirname, "..");
const grammarPath = join(root, "editors/vscode/syntaxes/baml.tmLanguage.json");
const files = [
  join(root, "examples/resume/baml_src/clients.baml"),
  join(root, "examples/resume/baml_src/resume.baml"),
  join(root, "test/fixtures/grammar/showcase.baml"),
];

let grammar: IGrammar;

beforeAll(async () => {
  const wasm = readFileSync(createRequire(import.meta.url).resolve("vscode-oniguruma/release/onig.wasm"));
  await loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer);
  const registry = new Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns: string[]) => new OnigScanner(patterns),
      createOnigString: (text: string) => new OnigString(text),
    }),
    loadGrammar: async (scopeName) =>
      scopeName === "source.baml" ? parseRawGrammar(readFileSync(grammarPath, "utf8"), grammarPath) : null,
  });
  const loaded = await registry.loadGrammar("source.baml");
  if (!loaded) throw new Error("the BAML grammar did not load");
  grammar = loaded;
});

/** Each line, then one row per token that has a scope: the token's text and its scopes (innermost last). */
function tokenize(text: string): string {
  const out: string[] = [];
  let state = INITIAL;
  text.split("\n").forEach((line, index) => {
    const result = grammar.tokenizeLine(line, state);
    state = result.ruleStack;
    out.push(`${String(index + 1).padStart(3)} | ${line}`);
    for (const token of result.tokens) {
      const scopes = token.scopes.filter((scope) => scope !== "source.baml");
      const piece = line.slice(token.startIndex, token.endIndex);
      if (scopes.length === 0 || piece.trim() === "") continue;
      out.push(`    | ${JSON.stringify(piece).padEnd(28)} ${scopes.join(" ")}`);
    }
  });
  return `${out.join("\n")}\n`;
}

describe("the BAML TextMate grammar", () => {
  it.each(files)("tokenizes %s as its snapshot says", async (file) => {
    await expect(tokenize(readFileSync(file, "utf8"))).toMatchFileSnapshot(
      join(root, "test/fixtures/grammar", `${basename(file)}.tokens.txt`),
    );
  });

  it("colours declarations, types, attributes, strings and the Jinja inside prompts", () => {
    const tokens = tokenize(readFileSync(files[2] as string, "utf8"));
    for (const expected of [
      /"class" +keyword\.declaration\.class\.baml/,
      /"Person" +entity\.name\.type\.baml/,
      /"int" +support\.type\.primitive\.baml/,
      /"description" +entity\.other\.attribute-name\.baml/,
      /"Full name" +string\.quoted\.double\.baml/,
      /"Describe" +entity\.name\.function\.baml/,
      /"for" +string\.quoted\.raw\.baml meta\.embedded\.block\.jinja meta\.embedded\.statement\.jinja keyword\.control\.jinja/,
      /"upper" +.*support\.function\.filter\.jinja/,
      /"ANTHROPIC_API_KEY" +variable\.other\.env\.baml/,
      /"this" +.*variable\.language\.this\.jinja/,
    ])
      expect(tokens).toMatch(expected);
  });
});
