import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const manifest = JSON.parse(readFileSync(resolve(root, "package.json"), "utf8")) as {
  peerDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** `>=A <B` (the only form the `ai` peer range uses): whether `version`'s major is in [A, B). */
function admits(range: string, version: string): boolean {
  const match = /^>=(\d+) <(\d+)$/.exec(range);
  if (!match) throw new Error(`the ai peer range is no longer of the form ">=A <B": ${range}`);
  const major = Number(version.replace(/^npm:ai@/, "").split(".")[0]);
  return major >= Number(match[1]) && major < Number(match[2]);
}

it("the ai peer range admits both majors the AI SDK suites run against (6 and 7), so npm installs either", () => {
  const range = manifest.peerDependencies.ai ?? "";
  const tested = [manifest.devDependencies.ai, manifest.devDependencies["ai-v7"]];
  expect(tested.map((version) => version?.replace(/^npm:ai@/, "").split(".")[0])).toEqual(["6", "7"]);
  for (const version of tested) expect(admits(range, version ?? "")).toBe(true);
});
