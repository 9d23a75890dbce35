import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { captureContext } from "../cli-context.js";
import { main } from "../main.js";

describe("sapling dev", () => {
  it("is listed, and its help needs no project", async () => {
    const context = captureContext();
    expect(await main(["--help"], context)).toBe(0);
    expect(context.output().stdout).toMatch(/^ {2}dev {3,}open the playground in the browser/m);
    const help = captureContext();
    expect(await main(["help", "dev"], help)).toBe(0);
    expect(help.output().stdout).toContain("Usage: sapling dev [--from DIR] [--port N] [--mock]");
  });

  it("says what to do when the folder is missing or the port is not a port", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "sapling-dev-cli-"));
    const missing = captureContext({ cwd });
    expect(await main(["dev"], missing)).toBe(1);
    expect(missing.output().stderr).toBe(
      "sapling dev: baml_src does not exist. Pass --from DIR to point at your baml_src folder.\n",
    );
    const port = captureContext({ cwd });
    expect(await main(["dev", "--port", "70000"], port)).toBe(2);
    expect(port.output().stderr).toMatch(
      /^sapling dev: --port must be a port number from 0 to 65535, got "70000"/,
    );
  });
});
