/**
 * The VS Code extension's pure parts (editors/vscode/src): which Sapling versions it accepts, and how it
 * finds the project's Sapling in node_modules. The extension must accept the version this repository is.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { findSapling } from "../editors/vscode/src/find-sapling.js";
import { isSupportedSaplingVersion } from "../editors/vscode/src/supported-version.js";

const root = resolve(import.meta.dirname, "..");

describe("the VS Code extension", () => {
  it("supports the Sapling version of this repository, and not the next minor or an older one", () => {
    const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
    expect(isSupportedSaplingVersion(version)).toBe(true);
    expect(isSupportedSaplingVersion("0.1.7")).toBe(true);
    expect(isSupportedSaplingVersion("0.2.0")).toBe(false);
    expect(isSupportedSaplingVersion("0.0.9")).toBe(false);
    expect(isSupportedSaplingVersion("not a version")).toBe(false);
  });

  it("finds sapling-llm in the nearest node_modules above a workspace folder, and its missing server peers", () => {
    const project = mkdtempSync(join(tmpdir(), "sapling-extension-"));
    const packageDir = join(project, "node_modules", "sapling-llm");
    mkdirSync(packageDir, { recursive: true });
    writeFileSync(
      join(packageDir, "package.json"),
      JSON.stringify({
        version: "0.1.3",
        bin: { sapling: "./dist/cli/bin.js" },
        peerDependencies: {
          zod: ">=4",
          "vscode-languageserver": "^10",
          "vscode-languageserver-textdocument": "^1",
        },
      }),
    );
    // One of the two server packages is installed (hoisted beside sapling-llm), the other is not.
    mkdirSync(join(project, "node_modules", "vscode-languageserver"));
    writeFileSync(join(project, "node_modules", "vscode-languageserver", "package.json"), "{}");
    mkdirSync(join(project, "packages", "app"), { recursive: true });
    expect(findSapling(join(project, "packages", "app"))).toEqual({
      bin: join(packageDir, "dist/cli/bin.js"),
      version: "0.1.3",
      packageDir,
      missingServerPackages: ["vscode-languageserver-textdocument"],
    });
    expect(findSapling(mkdtempSync(join(tmpdir(), "sapling-extension-none-")))).toBeUndefined();
  });
});
