import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compile } from "../../language/index.js";
import { captureContext } from "../cli-context.js";
import { main } from "../main.js";

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

  it("creates the project under --dest", async () => {
    const root = emptyFolder();
    const context = captureContext({ cwd: root });
    expect(await main(["init", "--dest", "app"], context)).toBe(0);
    expect(existsSync(join(root, "app", "baml_src", "resume.baml"))).toBe(true);
    expect(context.output().stdout).toContain("sapling generate --from app/baml_src");
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
