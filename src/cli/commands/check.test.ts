import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { captureContext } from "../cli-context.js";
import { main } from "../main.js";

const resumeDir = join(import.meta.dirname, "../../../examples/resume/baml_src");

function project(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "sapling-check-"));
  for (const [name, text] of Object.entries(files)) {
    const path = join(root, "baml_src", name);
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, text);
  }
  return root;
}

describe("sapling check", () => {
  it("exits 0 on the resume example", async () => {
    const context = captureContext();
    expect(await main(["check", "--from", resumeDir], context)).toBe(0);
    expect(context.output().stdout).toContain("(2 files): no problems.");
  });

  it("reads ./baml_src recursively and reports errors with locations, exiting 1", async () => {
    const root = project({
      "nested/models.baml": "class A {\n  name Strng\n}\n",
      "functions.baml": 'function F(a: A) -> A {\n  client GPT4\n  prompt #"hi"#\n}\n',
    });
    const context = captureContext({ cwd: root });
    expect(await main(["check"], context)).toBe(1);
    const { stderr } = context.output();
    expect(stderr).toContain("--> baml_src/nested/models.baml:2:8");
    expect(stderr).toContain("--> baml_src/functions.baml:2:10");
    expect(stderr).toContain("Checked baml_src (2 files): 2 errors.");
  });

  it("prints warnings but exits 0 when there are no errors", async () => {
    const root = project({ "gen.baml": 'generator g {\n  output_type "python/pydantic"\n}\n' });
    const context = captureContext({ cwd: root });
    expect(await main(["check"], context)).toBe(0);
    expect(context.output().stdout).toContain("warning[W0604]");
    expect(context.output().stdout).toContain("1 warning.");
  });

  it("exits 0 on a project whose only problems are warnings, such as a skipped workflow", async () => {
    const root = project({
      "main.baml": [
        "function Echo(text: string) -> string {",
        '  client "openai/gpt-4o"',
        '  prompt #"{{ text }}"#',
        "}",
        "function Twice(text: string) -> string {",
        "  let first = Echo(text);",
        "  Echo(first)",
        "}",
        "",
      ].join("\n"),
    });
    const context = captureContext({ cwd: root });
    expect(await main(["check"], context)).toBe(0);
    expect(context.output().stdout).toContain('warning[W0306]: Function "Twice" is an expression function');
    expect(context.output().stdout).toContain("1 warning.");
  });

  it("reports a missing folder in one line", async () => {
    const context = captureContext({ cwd: tmpdir() });
    expect(await main(["check", "--from", "no-such-folder-xyz"], context)).toBe(1);
    expect(context.output().stderr).toBe(
      "sapling check: no-such-folder-xyz does not exist. Pass --from DIR to point at your baml_src folder.\n",
    );
  });

  it("rejects unknown flags with the usage", async () => {
    const context = captureContext();
    expect(await main(["check", "--nope"], context)).toBe(2);
    expect(context.output().stderr).toMatch(
      /^sapling check: unknown option '--nope'\n\nUsage: sapling check/,
    );
  });

  it("reports a folder without .baml files", async () => {
    const root = project({ "readme.txt": "nothing" });
    const context = captureContext({ cwd: root });
    expect(await main(["check"], context)).toBe(1);
    expect(context.output().stderr).toBe("sapling check: baml_src contains no .baml files.\n");
  });
});
