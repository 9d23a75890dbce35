/**
 * Golden prompt renderings: every case in test/fixtures/prompt/render/*.txt renders its function with its
 * arguments, client and tags, and must produce exactly the expected messages (or the expected error,
 * including its `.baml` location). `UPDATE_EXPECT=1` rewrites the expectations from the current output.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Ir } from "../src/ir/index.js";
import { type RenderPromptContext, renderPrompt } from "../src/prompt/index.js";
import type { ChatMessage } from "../src/util/index.js";
import { type FixtureCase, readFixtureCases } from "./prompt-fixture-cases.js";
import { fixtureIr } from "./prompt-fixture-ir.js";

const folder = join(import.meta.dirname, "fixtures", "prompt", "render");
const cases = readFixtureCases(folder);
const actuals = new Map<FixtureCase, string>();

/** Messages as readable text: a `## role` line (plus metadata JSON), then the parts, media as `[…]`. */
function describeMessages(messages: ChatMessage[]): string {
  return messages
    .map((message) => {
      const header = `## ${message.role}${message.metadata ? ` ${JSON.stringify(message.metadata)}` : ""}`;
      const parts = message.parts.map((part) => {
        if (part.type === "text") return showEdgeWhitespace(part.text);
        const media = part.media;
        return media.url !== undefined
          ? `[${media.type} url=${media.url}]`
          : `[${media.type} base64 ${media.mediaType ?? "?"} ${media.base64?.length ?? 0} chars]`;
      });
      return [header, ...parts].join("\n");
    })
    .join("\n");
}

/** Leading and trailing whitespace of a part shown as `⟨\n⟩`, so it survives the fixture format. */
function showEdgeWhitespace(text: string): string {
  const show = (edge: string): string => (edge === "" ? "" : `⟨${JSON.stringify(edge).slice(1, -1)}⟩`);
  const leading = /^\s*/.exec(text)?.[0] ?? "";
  if (leading === text) return show(text);
  const trailing = /\s*$/.exec(text)?.[0] ?? "";
  return show(leading) + text.slice(leading.length, text.length - trailing.length) + show(trailing);
}

/** For subset-read cases: where each prompt and template string starts, as the compiler records it. */
function addSources(ir: Ir, baml: string): void {
  const locate = (pattern: RegExp): { file: string; line: number; column: number } | undefined => {
    const match = pattern.exec(baml);
    if (!match) return undefined;
    const offset = match.index + match[0].length;
    const before = baml.slice(0, offset);
    return {
      file: "fixture.baml",
      line: before.split("\n").length,
      column: offset - before.lastIndexOf("\n"),
    };
  };
  for (const fn of ir.functions) {
    const source = locate(new RegExp(`function ${fn.name}\\b[\\s\\S]*?prompt #+"`));
    if (source) fn.promptSource = source;
  }
  for (const template of ir.templateStrings) {
    const source = locate(new RegExp(`template_string ${template.name}\\b[^#]*#+"`));
    if (source) template.source = source;
  }
}

function run(fixture: FixtureCase): string {
  const ir = fixtureIr(fixture, { withClients: true });
  if (fixture.settings.parser?.startsWith("subset")) addSources(ir, fixture.baml);
  const functionName = fixture.settings.function ?? ir.functions[0]?.name ?? "";
  const context: RenderPromptContext = {
    client: JSON.parse(fixture.settings.client ?? '{"name": "GPT4o", "provider": "openai"}'),
    ...(fixture.settings.tags ? { tags: JSON.parse(fixture.settings.tags) } : {}),
    ...(fixture.settings.output_format
      ? { outputFormatOptions: JSON.parse(fixture.settings.output_format) }
      : {}),
  };
  const args = JSON.parse(fixture.settings.args ?? "{}");
  try {
    return describeMessages(renderPrompt(ir, functionName, args, context));
  } catch (error) {
    if (fixture.error === undefined) throw error;
    return error instanceof Error ? error.message : String(error);
  }
}

describe("prompt rendering golden cases", () => {
  it("has at least 20 cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(20);
  });

  for (const fixture of cases) {
    it(`${fixture.file}: ${fixture.name}`, () => {
      const actual = run(fixture);
      actuals.set(fixture, actual);
      if (process.env.UPDATE_EXPECT) return;
      if (fixture.error !== undefined) expect(actual).toBe(fixture.error);
      else expect(actual).toBe(fixture.expect);
    });
  }

  afterAll(() => {
    if (!process.env.UPDATE_EXPECT) return;
    for (const file of new Set(cases.map((fixture) => fixture.file))) {
      const path = join(folder, file);
      const chunks = readFileSync(path, "utf8").split(/^(?==== )/m);
      const fileCases = cases.filter((fixture) => fixture.file === file);
      let caseIndex = 0;
      const rewritten = chunks.map((chunk) => {
        if (!chunk.startsWith("=== ")) return chunk;
        const fixture = fileCases[caseIndex++];
        const actual = fixture ? actuals.get(fixture) : undefined;
        const marker = /^--- (expect|error)$/m.exec(chunk);
        if (actual === undefined || !marker) return chunk;
        return `${chunk.slice(0, marker.index + marker[0].length)}\n${actual}\n\n`;
      });
      writeFileSync(path, `${rewritten.join("").trimEnd()}\n`);
    }
  });
});
