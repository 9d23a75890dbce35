import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { captureContext } from "../cli-context.js";
import { main } from "../main.js";

const messy = "class A{\n  a   int // kept\n}\n";
const tidy = "class A {\n  a int // kept\n}\n";

function project(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "sapling-fmt-"));
  for (const [name, text] of Object.entries(files)) {
    const path = join(root, "baml_src", name);
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, text);
  }
  return root;
}

describe("sapling fmt", () => {
  it("--check lists unformatted files, changes nothing, and exits 1", async () => {
    const root = project({ "a.baml": messy, "nested/b.baml": tidy });
    const context = captureContext({ cwd: root });
    expect(await main(["fmt", "--check"], context)).toBe(1);
    expect(context.output().stderr).toBe(
      "not formatted: baml_src/a.baml\n1 of 2 files need formatting; run `sapling fmt` to fix them.\n",
    );
    expect(readFileSync(join(root, "baml_src/a.baml"), "utf8")).toBe(messy);
  });

  it("rewrites unformatted files in place, then --check passes", async () => {
    const root = project({ "a.baml": messy, "b.baml": tidy });
    const context = captureContext({ cwd: root });
    expect(await main(["fmt"], context)).toBe(0);
    expect(context.output().stdout).toBe("formatted baml_src/a.baml\nFormatted 1 of 2 files.\n");
    expect(readFileSync(join(root, "baml_src/a.baml"), "utf8")).toBe(tidy);
    const again = captureContext({ cwd: root });
    expect(await main(["fmt", "--check"], again)).toBe(0);
    expect(again.output().stdout).toBe("All 2 files are formatted.\n");
  });

  it("never calls a file with syntax errors formatted: it is named, and the exit code is 1", async () => {
    const broken = "class B {\n  broken\n";
    const root = project({ "a.baml": tidy, "b.baml": broken });
    const check = captureContext({ cwd: root });
    expect(await main(["fmt", "--check"], check)).toBe(1);
    expect(check.output()).toEqual({
      stdout: "",
      stderr:
        "cannot format baml_src/b.baml: 2 syntax errors\n" +
        "1 of 2 files are formatted; 1 file with syntax errors skipped (baml_src/b.baml; run `sapling check`).\n",
    });
    const write = captureContext({ cwd: root });
    expect(await main(["fmt"], write)).toBe(1);
    expect(write.output().stdout).toBe(
      "Formatted 0 of 2 files; 1 file with syntax errors skipped (baml_src/b.baml; run `sapling check`).\n",
    );
    expect(readFileSync(join(root, "baml_src/b.baml"), "utf8")).toBe(broken);
  });

  it("names the files a baml-format: ignore line keeps out of the check", async () => {
    const root = project({ "a.baml": tidy, "b.baml": `// baml-format: ignore\n${messy}` });
    const context = captureContext({ cwd: root });
    expect(await main(["fmt", "--check"], context)).toBe(0);
    expect(context.output().stdout).toBe(
      "All 1 file is formatted; 1 file left alone by baml-format: ignore (baml_src/b.baml).\n",
    );
  });

  it("reports a missing folder in one line", async () => {
    const context = captureContext({ cwd: tmpdir() });
    expect(await main(["fmt", "--from", "missing-folder-xyz"], context)).toBe(1);
    expect(context.output().stderr).toContain("missing-folder-xyz does not exist");
  });
});
