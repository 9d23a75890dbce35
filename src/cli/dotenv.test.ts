import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CliError, captureContext } from "./cli-context.js";
import { dotenvFlags, environmentFor, parseDotenv } from "./dotenv.js";
import { parseFlags } from "./parse-flags.js";

describe("parseDotenv", () => {
  it("reads names, exports, comments and the three kinds of values", () => {
    const text = [
      "\uFEFF# a comment",
      "",
      "PLAIN=value with spaces   # trailing comment",
      "export EXPORTED=1",
      "EMPTY=",
      "HASH=a#b",
      "SINGLE='literal \\n $HOME # not a comment'",
      'DOUBLE="line one\\nline \\"two\\"\\t\\\\"',
      'MULTI="first',
      "second",
      'third"',
      "  SPACED = padded  ",
      "WINDOWS=crlf\r",
    ].join("\n");
    expect(parseDotenv(text, ".env")).toEqual({
      PLAIN: "value with spaces",
      EXPORTED: "1",
      EMPTY: "",
      HASH: "a#b",
      SINGLE: "literal \\n $HOME # not a comment",
      DOUBLE: 'line one\nline "two"\t\\',
      MULTI: "first\nsecond\nthird",
      SPACED: "padded",
      WINDOWS: "crlf",
    });
  });

  it("names the file and line of a line it cannot read", () => {
    expect(() => parseDotenv("A=1\nnot a variable\n", "config/.env")).toThrow(
      'config/.env:2: expected NAME=value, found "not a variable".',
    );
    expect(() => parseDotenv("1BAD=x", ".env")).toThrow(".env:1: expected NAME=value");
    expect(() => parseDotenv('A="open\nB=2', ".env")).toThrow('.env:1: the value of A has no closing ".');
    expect(() => parseDotenv("A='open", ".env")).toThrow(".env:1: the value of A has no closing '.");
  });
});

describe("environmentFor", () => {
  const folder = mkdtempSync(join(tmpdir(), "sapling-dotenv-"));
  writeFileSync(join(folder, ".env"), "FROM_FILE=file\nSHARED=file\n");
  writeFileSync(join(folder, "other.env"), "OTHER=yes\n");
  const flags = (...argv: string[]) => parseFlags(argv, dotenvFlags);

  it("is the context's environment unless a flag asks for a file", async () => {
    const context = captureContext({ cwd: folder, env: { SHARED: "env" } });
    expect(await environmentFor(flags(), context)).toBe(context.env);
  });

  it("adds ./.env under --dotenv, the environment winning", async () => {
    const context = captureContext({ cwd: folder, env: { SHARED: "env", ONLY_ENV: "x" } });
    expect(await environmentFor(flags("--dotenv"), context)).toEqual({
      FROM_FILE: "file",
      SHARED: "env",
      ONLY_ENV: "x",
    });
  });

  it("reads the file --dotenv-path names, relative to the current folder", async () => {
    const context = captureContext({ cwd: folder });
    expect(await environmentFor(flags("--dotenv-path", "other.env"), context)).toEqual({ OTHER: "yes" });
  });

  it("fails clearly when the file is missing", async () => {
    const context = captureContext({ cwd: folder });
    const failure = environmentFor(flags("--dotenv-path", "missing.env"), context);
    await expect(failure).rejects.toThrow(CliError);
    await expect(failure).rejects.toThrow("cannot read missing.env for --dotenv: it does not exist.");
  });
});
