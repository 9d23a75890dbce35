import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultReadTextFile, nodeTextFileReader } from "./default-read-text-file.js";

describe("the runtime's default file reader", () => {
  it("reads UTF-8 files through Node's process.getBuiltinModule, the same function every time", async () => {
    const folder = await mkdtemp(join(tmpdir(), "sapling-read-"));
    try {
      const path = join(folder, "key.json");
      await writeFile(path, '{"name": "Zoë"}');
      const reader = defaultReadTextFile();
      expect(reader).toBeDefined();
      expect(await reader?.(path)).toBe('{"name": "Zoë"}');
      expect(defaultReadTextFile()).toBe(reader);
      await expect(reader?.(join(folder, "absent.json"))).rejects.toThrow(/ENOENT/);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it.each<[string, unknown]>([
    ["no process (browsers, edge workers)", undefined],
    ["a process without getBuiltinModule (Node before 20.16)", { version: "v20.10.0" }],
    ["a getBuiltinModule that has no fs/promises", { getBuiltinModule: () => undefined }],
  ])("has no reader with %s", (_name, host) => {
    expect(nodeTextFileReader(host)).toBeUndefined();
  });
});
