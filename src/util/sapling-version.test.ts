import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { minorVersion, SAPLING_VERSION } from "./sapling-version.js";

describe("SAPLING_VERSION", () => {
  it("is package.json's version", () => {
    const manifest = JSON.parse(readFileSync(join(import.meta.dirname, "../../package.json"), "utf8")) as {
      version: string;
    };
    expect(SAPLING_VERSION).toBe(manifest.version);
  });

  it("minorVersion keeps major.minor", () => {
    expect(minorVersion("0.1.7")).toBe("0.1");
    expect(minorVersion("2.10.0-beta.1")).toBe("2.10");
  });
});
