/**
 * The runtime entry point builds for the browser (esbuild, platform "browser": any `node:` import fails the
 * build) and parses a messy answer inside headless Chromium. `.ci/run` installs Debian's chromium; a
 * developer machine without it skips this file, CI never does.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { build } from "esbuild";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { compile } from "../src/language/index.js";
import { chromiumPath, launchChromium, chromiumRequired as required } from "./browser/launch-chromium.js";

const root = resolve(import.meta.dirname, "..");

function resumeIr(): unknown {
  const folder = join(root, "examples", "resume", "baml_src");
  const sources = Object.fromEntries(
    readdirSync(folder)
      .filter((name) => name.endsWith(".baml"))
      .map((name) => [name, readFileSync(join(folder, name), "utf8")]),
  );
  const { ir, diagnostics } = compile(sources);
  if (!ir) throw new Error(`example does not compile: ${JSON.stringify(diagnostics)}`);
  return ir;
}

/** The example's IR with CandidateEvaluation made `@@dynamic`, for addBaml to extend. */
function dynamicResumeIr(): unknown {
  const ir = resumeIr() as { classes: { name: string; dynamic: boolean }[] };
  for (const item of ir.classes) if (item.name === "CandidateEvaluation") item.dynamic = true;
  return ir;
}

/** One of test/browser/'s entries bundled for the browser as a script; any `node:` import fails the build. */
async function bundleForBrowser(entry: string): Promise<string> {
  expect(chromiumPath, "Chromium is required on CI (.ci/run installs it)").toBeDefined();
  const bundle = await build({
    entryPoints: [join(root, "test", "browser", entry)],
    bundle: true,
    platform: "browser",
    format: "iife",
    write: false,
    logLevel: "silent",
  });
  const code = bundle.outputFiles[0]?.text ?? "";
  expect(code).not.toMatch(/require\(["']node:/);
  return code;
}

/** Runs `use` on a Chromium page that has loaded `code`. */
async function inChromium<T>(code: string, use: (page: Page) => Promise<T>): Promise<T> {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.setContent("<!doctype html><title>sapling</title>");
    await page.addScriptTag({ content: code });
    return await use(page);
  } finally {
    await browser.close();
  }
}

describe.skipIf(!chromiumPath && !required)("runtime in a browser", () => {
  it("bundles with no Node built-ins and parses a fenced, chatty answer in Chromium", async () => {
    const code = await bundleForBrowser("entry.ts");

    const answer = readFileSync(join(root, "examples", "resume", "outputs", "fenced-chatty.txt"), "utf8");
    await inChromium(code, async (page) => {
      const value = await page.evaluate(
        ([ir, text]) => {
          const { SaplingRuntime } = (
            globalThis as unknown as {
              sapling: {
                SaplingRuntime: { fromIr(ir: unknown): { parse(fn: string, text: string): unknown } };
              };
            }
          ).sapling;
          return SaplingRuntime.fromIr(ir).parse("EvaluateResume", text as string);
        },
        [resumeIr(), answer] as const,
      );
      expect(value).toMatchObject({
        candidate_name: "Jane Doe",
        years_of_experience: 8,
        decision: "STRONG_HIRE",
        work_history: [{ company: "Streamline", achievements: ["Led the Kubernetes migration"] }],
      });
    });
  }, 60_000);

  it("reads a delta-format event stream with readStream in Chromium", async () => {
    const code = await bundleForBrowser("entry.ts");
    const events =
      'data: [["=",[],{"name":"Ja","skills":[]}]]\n\n: keep-alive\n\ndata: [["+",["name"],"ne"]]\n\n' +
      'data: [" Doe",["+",["skills"],["Go"]]]\n\nevent: final\ndata: {"delta":[["+",["skills"],["Rust"]]]}\n\n';
    await inChromium(code, async (page) => {
      const result = await page.evaluate(async (text) => {
        type Reader = AsyncIterable<unknown> & { getFinalResponse(): Promise<unknown> };
        const { readStream } = (
          globalThis as unknown as { sapling: { readStream(response: Response): Reader } }
        ).sapling;
        // Three bytes per read: events arrive cut anywhere.
        const bytes = new TextEncoder().encode(text);
        let at = 0;
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (at >= bytes.length) {
              controller.close();
              return;
            }
            controller.enqueue(bytes.slice(at, at + 3));
            at += 3;
          },
        });
        const stream = readStream(new Response(body, { headers: { "content-type": "text/event-stream" } }));
        const partials: unknown[] = [];
        for await (const partial of stream) partials.push(partial);
        return { last: partials.at(-1), final: await stream.getFinalResponse() };
      }, events);
      expect(result).toEqual({
        last: { name: "Jane Doe", skills: ["Go"] },
        final: { name: "Jane Doe", skills: ["Go", "Rust"] },
      });
    });
  }, 60_000);

  it("bundles the package root too (generated type_builder.ts imports it) and runs addBaml in Chromium", async () => {
    const code = await bundleForBrowser("add-baml-entry.ts");
    await inChromium(code, async (page) => {
      const value = await page.evaluate((ir) => {
        interface Builder {
          addBaml(source: string): void;
        }
        const { SaplingRuntime, TypeBuilder, typeBuilderCompiler } = (
          globalThis as unknown as {
            sapling: {
              SaplingRuntime: {
                fromIr(ir: unknown): { parse(fn: string, text: string, options: object): unknown };
              };
              TypeBuilder: new (ir: unknown, options: object) => Builder;
              typeBuilderCompiler: unknown;
            };
          }
        ).sapling;
        const tb = new TypeBuilder(ir, { compileBaml: typeBuilderCompiler });
        tb.addBaml(
          "class Referee {\n  name string\n}\ndynamic class CandidateEvaluation {\n  referee Referee\n}",
        );
        return SaplingRuntime.fromIr(ir).parse(
          "EvaluateResume",
          '{"candidate_name": "Ann", "years_of_experience": 3, "skills": [], "work_history": [],' +
            ' "decision": "HIRE", "reasoning": "ok", "referee": {"name": "Bo"}}',
          { tb },
        );
      }, dynamicResumeIr());
      expect(value).toMatchObject({ candidate_name: "Ann", referee: { name: "Bo" } });
    });
  }, 60_000);
});
