import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultMockAnswer } from "../../dev/index.js";
import { IrIndex } from "../../ir/index.js";
import { compile } from "../../language/index.js";
import { SaplingRuntime } from "../../runtime/index.js";
import { answer, startMockLlmServer } from "../../testing/index.js";
import { captureContext } from "../cli-context.js";
import { main } from "../main.js";
import { initProjectFiles } from "./init-project-files.js";
import { runTestCase } from "./run-test-case.js";
import { selectTestCases } from "./test-cases.js";

function emptyFolder(): string {
  return mkdtempSync(join(tmpdir(), "sapling-init-"));
}

describe("sapling init", () => {
  it("writes a baml_src/ that compiles cleanly, with a function, clients and a TypeScript generator", async () => {
    const root = emptyFolder();
    const context = captureContext({ cwd: root });
    expect(await main(["init"], context)).toBe(0);
    expect(readdirSync(join(root, "baml_src")).sort()).toEqual([
      "clients.baml",
      "generators.baml",
      "resume.baml",
    ]);
    expect(context.output().stdout).toContain("sapling generate");
    const sources: Record<string, string> = {};
    for (const file of readdirSync(join(root, "baml_src"))) {
      sources[file] = readFileSync(join(root, "baml_src", file), "utf8");
    }
    const { ir, diagnostics } = compile(sources);
    expect(diagnostics).toEqual([]);
    expect(ir?.functions.map((item) => item.name)).toEqual(["EvaluateResume"]);
    expect(ir?.classes.map((item) => item.name).sort()).toEqual(["CandidateEvaluation", "WorkHistory"]);
    expect(ir?.enums.map((item) => item.name)).toEqual(["Decision"]);
    expect(ir?.clients.map((item) => `${item.name}:${item.provider}`).sort()).toEqual([
      "GPT4oMini:openai",
      "Local:openai-generic",
    ]);
    expect(ir?.generators).toMatchObject([
      { outputType: "typescript", outputDir: "../", moduleFormat: "esm" },
    ]);
  });

  it("in a CommonJS package (npm's default) writes a CommonJS client and a snippet without top-level await", async () => {
    const root = emptyFolder();
    writeFileSync(join(root, "package.json"), JSON.stringify({ name: "app", type: "commonjs" }));
    mkdirSync(join(root, "src"));
    const context = captureContext({ cwd: join(root, "src") });
    expect(await main(["init"], context)).toBe(0);
    const generators = readFileSync(join(root, "src", "baml_src", "generators.baml"), "utf8");
    expect(generators).toContain('module_format "cjs"');
    const { stdout } = context.output();
    expect(stdout).toContain(`The client is CommonJS, as ${join(root, "package.json")} says.`);
    expect(stdout).toContain(
      '  import { b } from "./baml_client";\n  async function main() {\n    const evaluation = await b.EvaluateResume(resumeText);\n  }\n  main();\n',
    );
    expect(stdout).not.toMatch(/^ {2}const evaluation = await/m);
  });

  it('a package.json without "type" is CommonJS too; "type": "module" keeps ESM', async () => {
    const plain = emptyFolder();
    writeFileSync(join(plain, "package.json"), JSON.stringify({ name: "app" }));
    expect(await main(["init"], captureContext({ cwd: plain }))).toBe(0);
    expect(readFileSync(join(plain, "baml_src", "generators.baml"), "utf8")).toContain('module_format "cjs"');
    const esm = emptyFolder();
    writeFileSync(join(esm, "package.json"), JSON.stringify({ name: "app", type: "module" }));
    const context = captureContext({ cwd: esm });
    expect(await main(["init"], context)).toBe(0);
    expect(readFileSync(join(esm, "baml_src", "generators.baml"), "utf8")).toContain('module_format "esm"');
    expect(context.output().stdout).toContain(
      '  import { b } from "./baml_client/index.js";\n  const evaluation = await',
    );
  });

  it("says to install sapling-llm first unless it is installed (npx sapling would run another package)", async () => {
    const bare = emptyFolder();
    const first = captureContext({ cwd: bare });
    expect(await main(["init"], first)).toBe(0);
    expect(first.output().stdout).toContain("Next:\n  npm install --save-dev sapling-llm   # first:");
    const installed = emptyFolder();
    mkdirSync(join(installed, "node_modules", "sapling-llm"), { recursive: true });
    mkdirSync(join(installed, "app"));
    const second = captureContext({ cwd: join(installed, "app") });
    expect(await main(["init"], second)).toBe(0);
    expect(second.output().stdout).toContain("Next:\n  npx sapling generate");
  });

  it("scaffolds a test that passes against sapling dev's default mock answer, through the Local client", async () => {
    const { ir } = compile(initProjectFiles("0.0.0"));
    if (!ir) throw new Error("the scaffold does not compile");
    const index = new IrIndex(ir);
    const fn = ir.functions.find((item) => item.name === "EvaluateResume");
    if (!fn) throw new Error("no EvaluateResume");
    const server = await startMockLlmServer({ defaultAnswer: answer(defaultMockAnswer(fn, index)) });
    try {
      const runtime = SaplingRuntime.fromIr(ir, { env: { LOCAL_LLM_BASE_URL: server.baseUrls.openai } });
      const cases = selectTestCases(ir, { include: [], exclude: [] });
      expect(cases.map((item) => item.id)).toEqual(["EvaluateResume::EvaluateJane"]);
      const result = await runTestCase(cases[0]!, runtime, index, {
        projectDir: ".",
        env: {},
        signal: new AbortController().signal,
        client: "Local",
      });
      expect(result.status, JSON.stringify(result)).toBe("passed");
      expect(server.requestCount()).toBe(1);
    } finally {
      await server.close();
    }
  });

  it("creates the project under --dest", async () => {
    const root = emptyFolder();
    const context = captureContext({ cwd: root });
    expect(await main(["init", "--dest", "app"], context)).toBe(0);
    expect(existsSync(join(root, "app", "baml_src", "resume.baml"))).toBe(true);
    expect(context.output().stdout).toContain("npx sapling generate --from app/baml_src");
  });

  it("refuses to touch an existing baml_src/", async () => {
    const root = emptyFolder();
    mkdirSync(join(root, "baml_src"));
    writeFileSync(join(root, "baml_src", "mine.baml"), "class Mine {\n  a string\n}\n");
    const context = captureContext({ cwd: root });
    expect(await main(["init"], context)).toBe(1);
    expect(context.output().stderr).toContain("baml_src already exists; init never overwrites a project");
    expect(readdirSync(join(root, "baml_src"))).toEqual(["mine.baml"]);
  });

  it("rejects unexpected arguments with the usage", async () => {
    const context = captureContext({ cwd: emptyFolder() });
    expect(await main(["init", "extra"], context)).toBe(2);
    expect(context.output().stderr).toContain("Usage: sapling init");
  });
});
