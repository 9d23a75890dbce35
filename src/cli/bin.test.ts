import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const bin = join(import.meta.dirname, "bin.ts");
const project = join(import.meta.dirname, "../../examples/resume/baml_src");

describe("the sapling executable", () => {
  it("stops quietly with exit code 0 when its reader closes the pipe (`… | head`)", async () => {
    // An answer whose value is far larger than a pipe buffer, so the write outlives the reader.
    const answer = join(mkdtempSync(join(tmpdir(), "sapling-bin-")), "answer.txt");
    writeFileSync(answer, Array.from({ length: 300_000 }, (_, index) => index).join(","));
    const child = spawn(
      process.execPath,
      ["--import", "tsx", bin, "parse", "--from", project, "--type", "string[]", answer],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.stdout.once("data", () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on("close", (exit) => resolve(exit)));
    expect(stderr).toBe("");
    expect(code).toBe(0);
    // tsx compiles the CLI from source in the child first, which on a loaded machine takes a while.
  }, 60_000);
});
