/**
 * Request bodies against test/fixtures/requests/*.txt: each case's body, built by Sapling with nothing
 * sent, must be its `--- expect` JSON (keys in order). The real BAML builds the same cases in
 * `npm run bench -- prompt`. `UPDATE_EXPECT=1` rewrites the expectations from the current output.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  type RequestCase,
  readRequestCases,
  requestFixtureFolder,
  saplingRequestBody,
} from "./request-body-cases.js";

const update = process.env.UPDATE_EXPECT === "1";
const cases = readRequestCases();
const actuals = new Map<RequestCase, string>();

describe("request body fixtures", () => {
  it("has cases", () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  for (const item of cases) {
    it(`${item.fixture.file}: ${item.fixture.name}`, async () => {
      const body = JSON.stringify(JSON.parse(await saplingRequestBody(item)), null, 2);
      actuals.set(item, body);
      if (!update) expect(body).toBe(item.fixture.expect);
      if (item.differs !== undefined) {
        expect(item.bamlBody, "a deliberate difference names BAML's body in `--- baml:`").toBeDefined();
        expect(JSON.stringify(JSON.parse(item.bamlBody ?? "null"), null, 2)).not.toBe(body);
      }
    });
  }

  afterAll(() => {
    if (!update) return;
    const byFile = new Map<string, RequestCase[]>();
    for (const item of cases) byFile.set(item.fixture.file, [...(byFile.get(item.fixture.file) ?? []), item]);
    for (const [file, items] of byFile) {
      const path = join(requestFixtureFolder, file);
      const chunks = readFileSync(path, "utf8").split(/^(?==== )/m);
      let index = 0;
      const next = chunks.map((chunk) => {
        if (!chunk.startsWith("=== ")) return chunk;
        const item = items[index++];
        const body = item === undefined ? undefined : actuals.get(item);
        if (body === undefined) return chunk;
        const head = chunk.slice(0, chunk.indexOf("--- expect\n") + "--- expect\n".length);
        return `${head}${body}\n\n`;
      });
      writeFileSync(path, `${next.join("").trimEnd()}\n`);
    }
  });
});
