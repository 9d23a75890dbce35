import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { captureContext } from "../cli-context.js";
import { main } from "../main.js";
import { renderCommandWith } from "./render.js";

const resumeDir = join(import.meta.dirname, "../../../examples/resume/baml_src");

function project(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "sapling-render-"));
  for (const [name, text] of Object.entries(files)) {
    const path = join(root, "baml_src", name);
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, text);
  }
  return root;
}

const clients =
  'client<llm> Claude {\n  provider anthropic\n  options {\n    model "claude-3-5-haiku"\n  }\n}\n';

describe("sapling render", () => {
  it("--schema-only prints the resume schema in 106 o200k tokens beside a larger JSON Schema", async () => {
    const context = captureContext();
    expect(await main(["render", "--schema-only", "--from", resumeDir, "EvaluateResume"], context)).toBe(0);
    const { stdout } = context.output();
    expect(stdout).toContain("Answer in JSON using this schema:\n{\n  candidate_name: string,");
    const schemaRow = /^output_format\s+(\d+)\s+(\d+)$/m.exec(stdout);
    const jsonRow = /^JSON Schema \(minified\)\s+(\d+)\s+(\d+)$/m.exec(stdout);
    expect(Number(schemaRow?.[1])).toBe(106);
    expect(Number(jsonRow?.[1])).toBeGreaterThanOrEqual(180);
  });

  it("--type renders another type expression, with --options", async () => {
    const context = captureContext();
    const argv = [
      "render",
      "--schema-only",
      "--from",
      resumeDir,
      "--type",
      "WorkHistory[]",
      "--options",
      '{"quote_class_fields": true}',
    ];
    expect(await main(argv, context)).toBe(0);
    expect(context.output().stdout).toContain(
      'Answer with a JSON Array using this schema:\n[\n  {\n    "company": string,',
    );
  });

  it("renders the prompt for the first leaf of a fallback client, with token counts", async () => {
    const context = captureContext();
    const argv = [
      "render",
      "EvaluateResume",
      "--from",
      resumeDir,
      "--args",
      '{"resume_text": "Jane Doe, Rust."}',
    ];
    expect(await main(argv, context)).toBe(0);
    const { stdout } = context.output();
    expect(stdout).toMatch(
      /^── system \(\d+ o200k_base, \d+ cl100k_base tokens\)\nEvaluate the candidate's resume/,
    );
    expect(stdout).toContain("Resume:\nJane Doe, Rust.\n");
    expect(stdout).toContain("1 message(s) for client GPT4oMini");
  });

  it("shows roles, metadata and media parts; anthropic defaults to the user role", async () => {
    const root = project({
      "clients.baml": clients,
      "main.baml":
        'function Look(photo: image, note: string) -> string {\n  client Claude\n  prompt #"\n    {{ note }}\n    {{ _.role("user", cache_control={"type": "ephemeral"}) }}\n    See {{ photo }}\n  "#\n}\n',
    });
    const context = captureContext({ cwd: root });
    const args = JSON.stringify({ photo: { url: "https://example.com/p.png" }, note: "Be terse." });
    expect(await main(["render", "Look", "--args", args], context)).toBe(0);
    const { stdout } = context.output();
    expect(stdout).toContain("── user (");
    expect(stdout).toContain('── user {"cache_control":{"type":"ephemeral"}} (');
    expect(stdout).toContain("See\n[image: https://example.com/p.png]\n");
  });

  it("reports a template mistake with its location in the .baml file, exit 1", async () => {
    const root = project({
      "clients.baml": clients,
      "main.baml":
        'function Greet(name: string) -> string {\n  client Claude\n  prompt #"\n    Hello {{ nme }}\n  "#\n}\n',
    });
    const context = captureContext({ cwd: root });
    expect(await main(["render", "Greet", "--args", '{"name": "Ada"}'], context)).toBe(1);
    expect(context.output().stderr).toContain(
      "baml_src/main.baml:4:14: in the prompt of Greet: Variable `nme` is not defined.",
    );
  });

  it("--jsonl renders one schema per line and reports bad lines without stopping", async () => {
    const lines = [
      { id: "a", baml: "class A {\n  x int\n}\n", target: "A", options: { prefix: null } },
      { id: "b", target: "string[]" },
      { id: "c", target: "Missing" },
    ];
    const context = captureContext({ stdin: lines.map((line) => JSON.stringify(line)).join("\n") });
    expect(await main(["render", "--jsonl"], context)).toBe(1);
    const output = context
      .output()
      .stdout.trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(output[0]).toEqual({
      id: "a",
      text: "{\n  x: int,\n}",
      tokens: { o200k_base: expect.any(Number), cl100k_base: expect.any(Number) },
    });
    expect(output[1].text).toBe("Answer with a JSON Array using this schema:\nstring[]");
    expect(output[2].error).toContain("Missing");
  });

  it("names the functions when the function is unknown", async () => {
    const context = captureContext();
    expect(await main(["render", "Nope", "--from", resumeDir], context)).toBe(1);
    expect(context.output().stderr).toContain(
      "the project has no function Nope (functions: EvaluateResume).",
    );
  });

  it("suggests the closest function name", async () => {
    const context = captureContext();
    expect(await main(["render", "EvaluateResum", "--from", resumeDir], context)).toBe(1);
    expect(context.output().stderr).toBe(
      "sapling render: the project has no function EvaluateResum. Did you mean EvaluateResume? (functions: EvaluateResume)\n",
    );
  });

  it("refuses --args keys the function has no parameter for, as sapling call does", async () => {
    const context = captureContext();
    const args = JSON.stringify({ resume_text: "Ada", resume: "typo" });
    expect(await main(["render", "EvaluateResume", "--from", resumeDir, "--args", args], context)).toBe(1);
    expect(context.output().stderr).toContain('--args: EvaluateResume has no parameter "resume".');
    expect(context.output().stdout).toBe("");
  });

  it("asks for a function name", async () => {
    const context = captureContext();
    expect(await main(["render", "--from", resumeDir], context)).toBe(2);
    expect(context.output().stderr).toContain("name the function to render");
  });

  describe("without js-tiktoken (an optional peer dependency)", () => {
    // What Node throws for `import("js-tiktoken/lite")` where the package is not installed.
    const absent = renderCommandWith(async () => {
      throw Object.assign(new Error("Cannot find package 'js-tiktoken' imported from /app/render.js"), {
        code: "ERR_MODULE_NOT_FOUND",
      });
    });

    it("still renders the prompt, without counts, and says how to install the tokenizer", async () => {
      const context = captureContext();
      const argv = ["EvaluateResume", "--from", resumeDir, "--args", '{"resume_text": "Jane Doe, Rust."}'];
      expect(await absent.run(argv, context)).toBe(0);
      const { stdout, stderr } = context.output();
      expect(stdout).toMatch(/^── system\nEvaluate the candidate's resume/);
      expect(stdout).toContain("\n1 message(s) for client GPT4oMini\n");
      expect(stdout).not.toContain("o200k_base");
      expect(stderr).toBe(
        "note: token counts need the optional package js-tiktoken: npm install --save-dev js-tiktoken\n",
      );
    });

    it("--schema-only prints the schema without the token table; --jsonl gives null tokens", async () => {
      const schema = captureContext();
      expect(await absent.run(["--schema-only", "--from", resumeDir, "EvaluateResume"], schema)).toBe(0);
      expect(schema.output().stdout).toContain("Answer in JSON using this schema:");
      expect(schema.output().stdout).not.toContain("JSON Schema (minified)");
      expect(schema.output().stderr).toContain("npm install --save-dev js-tiktoken");
      const lines = captureContext({ stdin: JSON.stringify({ id: "a", target: "int" }) });
      expect(await absent.run(["--jsonl"], lines)).toBe(0);
      expect(JSON.parse(lines.output().stdout)).toEqual({ id: "a", text: "Answer as an int", tokens: null });
    });

    it("a broken install (a dependency of js-tiktoken missing) is an error, not a missing package", async () => {
      const broken = renderCommandWith(async () => {
        throw Object.assign(
          new Error(
            "Cannot find package 'base64-js' imported from /app/node_modules/js-tiktoken/dist/lite.js",
          ),
          { code: "ERR_MODULE_NOT_FOUND" },
        );
      });
      await expect(
        broken.run(["--schema-only", "--from", resumeDir, "EvaluateResume"], captureContext()),
      ).rejects.toThrow("Cannot find package 'base64-js'");
    });
  });
});
