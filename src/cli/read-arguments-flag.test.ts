import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CliError, captureContext, UsageError } from "./cli-context.js";
import { main } from "./main.js";
import { readArgumentsFlag } from "./read-arguments-flag.js";

describe("--args (sapling call and sapling render)", () => {
  const folder = mkdtempSync(join(tmpdir(), "sapling-args-"));
  writeFileSync(join(folder, "args.json"), '{"text": "from a file"}');

  it("reads inline JSON, @FILE relative to the working folder, and - for standard input", async () => {
    const context = captureContext({ cwd: folder, stdin: '{"text": "piped"}' });
    expect(await readArgumentsFlag(undefined, context)).toEqual({});
    expect(await readArgumentsFlag('{"text": "inline"}', context)).toEqual({ text: "inline" });
    expect(await readArgumentsFlag("@args.json", context)).toEqual({ text: "from a file" });
    expect(await readArgumentsFlag("-", context)).toEqual({ text: "piped" });
  });

  it("names where bad arguments came from", async () => {
    const context = captureContext({ cwd: folder, stdin: "[1]" });
    await expect(readArgumentsFlag("{text:", context)).rejects.toThrow(/^--args is not valid JSON/);
    await expect(readArgumentsFlag("-", context)).rejects.toThrow(
      /^standard input must be a JSON object keyed by parameter name/,
    );
    await expect(readArgumentsFlag("{text:", context)).rejects.toBeInstanceOf(UsageError);
    await expect(readArgumentsFlag("@missing.json", context)).rejects.toBeInstanceOf(CliError);
    await expect(readArgumentsFlag("@missing.json", context)).rejects.toThrow(
      "cannot read the arguments file missing.json.",
    );
  });

  it("is the same rule in both commands: bad JSON is a usage error, exit code 2", async () => {
    const project = join(import.meta.dirname, "..", "..", "examples", "resume", "baml_src");
    for (const command of ["call", "render"]) {
      const context = captureContext({ cwd: folder });
      expect(await main([command, "EvaluateResume", "--from", project, "--args", "{text:"], context)).toBe(2);
      expect(context.output().stderr).toMatch(new RegExp(`^sapling ${command}: --args is not valid JSON`));
    }
  });
});
