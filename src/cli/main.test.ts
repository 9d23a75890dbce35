import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { captureContext } from "./cli-context.js";
import { commands } from "./commands.js";
import { main } from "./main.js";

describe("sapling main", () => {
  it("lists every command with --help and exits 0", async () => {
    const context = captureContext();
    expect(await main(["--help"], context)).toBe(0);
    const { stdout } = context.output();
    for (const name of ["init", "generate", "check", "parse", "render", "call", "test", "serve"]) {
      expect(stdout).toMatch(new RegExp(`^  ${name}\\b`, "m"));
    }
  });

  it("loads every command of the table from its own module, with the usage `help NAME` prints", async () => {
    for (const entry of commands) {
      const command = await entry.load();
      expect(command.usage).toMatch(new RegExp(`^Usage: sapling ${entry.name}\\b`));
      const context = captureContext();
      expect(await main(["help", entry.name], context)).toBe(0);
      expect(context.output().stdout).toBe(`${command.usage.trimEnd()}\n`);
    }
  });

  it("prints the package version", async () => {
    const context = captureContext();
    expect(await main(["--version"], context)).toBe(0);
    const packageJson = JSON.parse(
      readFileSync(join(import.meta.dirname, "..", "..", "package.json"), "utf8"),
    );
    expect(context.output().stdout).toBe(`${packageJson.version}\n`);
  });

  it("answers an unknown command with one line and exit code 2", async () => {
    const context = captureContext();
    expect(await main(["frobnicate"], context)).toBe(2);
    expect(context.output().stderr).toBe(
      'sapling: unknown command "frobnicate". Run `sapling --help` for the list.\n',
    );
  });

  it("suggests the command a mistyped or shortened name means", async () => {
    const typo = captureContext();
    expect(await main(["gen"], typo)).toBe(2);
    expect(typo.output().stderr).toBe(
      'sapling: unknown command "gen". Did you mean `sapling generate`? Run `sapling --help` for the list.\n',
    );
    const swapped = captureContext();
    expect(await main(["chekc"], swapped)).toBe(2);
    expect(swapped.output().stderr).toContain("Did you mean `sapling check`?");
  });

  it("suggests the flag a mistyped one means", async () => {
    const context = captureContext();
    expect(await main(["call", "EvaluateResume", "--arg", "{}"], context)).toBe(2);
    expect(context.output().stderr.split("\n")[0]).toBe(
      "sapling call: unknown option '--arg'. Did you mean --args?",
    );
  });

  it("answers an unknown flag with one line plus the usage, not a stack trace", async () => {
    const context = captureContext();
    expect(await main(["check", "--frobnicate"], context)).toBe(2);
    const { stderr } = context.output();
    expect(stderr.split("\n")[0]).toMatch(/^sapling check: unknown option '--frobnicate'/);
    expect(stderr).not.toMatch(/at .*\.ts:\d+/);
  });
});
