import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** The Sapling a project installed: its CLI entry and version. */
export interface InstalledSapling {
  bin: string;
  version: string;
  packageDir: string;
  /** The optional peers `sapling lsp` runs on (from its package.json) that the project has not installed. */
  missingServerPackages: string[];
}

/**
 * The `sapling-llm` package in the `node_modules` nearest above `folder` (as Node resolves it), or
 * `undefined` when the project has not installed Sapling.
 */
export function findSapling(folder: string): InstalledSapling | undefined {
  for (let dir = folder; ; dir = dirname(dir)) {
    const packageDir = join(dir, "node_modules", "sapling-llm");
    const manifest = join(packageDir, "package.json");
    if (existsSync(manifest)) {
      const parsed = JSON.parse(readFileSync(manifest, "utf8")) as {
        version?: unknown;
        bin?: unknown;
        peerDependencies?: Record<string, string>;
      };
      const serverPackages = Object.keys(parsed.peerDependencies ?? {}).filter((name) =>
        name.startsWith("vscode-languageserver"),
      );
      const bin =
        typeof parsed.bin === "string"
          ? parsed.bin
          : typeof parsed.bin === "object" && parsed.bin !== null
            ? (parsed.bin as Record<string, unknown>).sapling
            : undefined;
      return {
        bin: join(packageDir, typeof bin === "string" ? bin : "dist/cli/bin.js"),
        version: typeof parsed.version === "string" ? parsed.version : "unknown",
        packageDir,
        missingServerPackages: serverPackages.filter((name) => !installedFrom(packageDir, name)),
      };
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** Whether Node would find package `name` from inside `packageDir` (its own or an enclosing node_modules). */
function installedFrom(packageDir: string, name: string): boolean {
  for (let dir = packageDir; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "node_modules", name, "package.json"))) return true;
    if (dirname(dir) === dir) return false;
  }
}
