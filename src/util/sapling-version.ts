/**
 * The version of this package (kept equal to package.json's, which a test checks): `sapling --version`,
 * the version `sapling init` writes into a generator, the version a generated client records, and the
 * version the runtime compares it with.
 */
export const SAPLING_VERSION = "0.1.0";

/** `"0.1"` from `"0.1.7"`: generated code and the runtime are compatible within a minor version. */
export function minorVersion(version: string): string {
  return version.split(".").slice(0, 2).join(".");
}
