/**
 * `sapling parse --partial` and `"partial": true` lines in `--jsonl` mode: the answer is read as the
 * beginning of a stream and answered with the partial value, exactly what `parsePartial` gives.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { captureContext } from "../src/cli/cli-context.js";
import { main } from "../src/cli/main.js";

const schema = readFileSync(
  join(import.meta.dirname, "fixtures", "sap-stream", "schemas", "stream.baml"),
  "utf8",
);

function streamProject(): string {
  const root = mkdtempSync(join(tmpdir(), "sapling-stream-cli-"));
  mkdirSync(join(root, "baml_src"));
  writeFileSync(join(root, "baml_src", "stream.baml"), schema);
  return root;
}

describe("sapling parse --partial", () => {
  it("prints the partial value of a prefix", async () => {
    const context = captureContext({
      cwd: streamProject(),
      stdin: 'Sure: {"id": "o7", "items": [{"name": "pe',
    });
    expect(await main(["parse", "--type", "Order", "--partial"], context)).toBe(0);
    expect(JSON.parse(context.output().stdout)).toEqual({
      id: "o7",
      items: [{ name: "pe", qty: null, price: null, tags: [] }],
      status: null,
      note: null,
      gift: null,
    });
  });

  it("prints null when nothing usable is written yet, where the final parse fails", async () => {
    const cwd = streamProject();
    const partial = captureContext({ cwd, stdin: "Let me think" });
    expect(await main(["parse", "--type", "Order", "--partial"], partial)).toBe(0);
    expect(partial.output().stdout).toBe("null\n");
    const final = captureContext({ cwd, stdin: "Let me think" });
    expect(await main(["parse", "--type", "Order"], final)).toBe(1);
  });

  it("answers a JSONL line with partial: true with the partial value, and other lines in final mode", async () => {
    const lines = [
      { id: 1, target: "Message", raw: '{"body": "hel', partial: true },
      { id: 2, target: "Message", raw: '{"author": "Ada", "body": "hel', partial: true },
      { id: 3, target: "Message", raw: '{"author": "Ada", "body": "hello"}' },
      { id: 4, target: "int", raw: "4", partial: true },
    ];
    const context = captureContext({
      cwd: streamProject(),
      stdin: lines.map((line) => JSON.stringify(line)).join("\n"),
    });
    expect(await main(["parse", "--jsonl"], context)).toBe(0);
    const answers = context
      .output()
      .stdout.trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(answers.map((answer) => [answer.id, answer.ok, answer.value, answer.partial])).toEqual([
      // @stream.not_null author: the message is held back until it has one.
      [1, true, null, true],
      [2, true, { author: "Ada", body: "hel" }, true],
      [3, true, { author: "Ada", body: "hello" }, undefined],
      // A bare number may still grow: not shown until the answer ends.
      [4, true, null, true],
    ]);
  });
});
