/**
 * The version `sapling init` writes into the generator block and `sapling generate` compares a
 * generator's `version` with (kept equal to package.json's version and `sapling --version`).
 */
export const SAPLING_VERSION = "0.1.0";

/** `"0.1"` from `"0.1.7"`: generated code is compatible within a minor version. */
export function minorVersion(version: string): string {
  return version.split(".").slice(0, 2).join(".");
}
