/**
 * Provider conformance on recorded wire fixtures. Each folder under test/fixtures/llm/ is one case:
 *
 * - `case.json`            provider, options (env already resolved), messages, optional `env` and `downloads`
 * - `request.json`         the non-streaming request that must be built (printable form: keys redacted)
 * - `stream-request.json`  the streaming request that must be built
 * - `response.json`        a recorded non-streaming answer body, read into `response.expected.json`
 * - `stream.chunks.txt`    a recorded SSE transcript, read into `stream.expected.json`, replayed whole and in
 *                          20 seeded random byte splits (the result must not depend on chunk boundaries)
 *
 * `UPDATE_EXPECT=1` rewrites the request files and the expected readings from the code (review the diff
 * before committing).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { createLanguageModel } from "../../src/llm/create-language-model.js";
import { type LanguageModel, type ModelStreamEvent, redactRequest } from "../../src/llm/index.js";
import {
  createReplayFetch,
  type ReplayCall,
  type ReplayResponse,
  randomSplitPoints,
} from "../../src/testing/index.js";
import type { ChatMessage } from "../../src/util/index.js";

const root = resolve(import.meta.dirname, "..", "fixtures", "llm");
const update = process.env.UPDATE_EXPECT === "1";

interface FixtureCase {
  provider: string;
  options: Record<string, unknown>;
  messages: ChatMessage[];
  env?: Record<string, string>;
  /** Media URLs the provider downloads: URL → content type and text body. */
  downloads?: Record<string, { contentType: string; body: string }>;
}

const readJson = (path: string): unknown => JSON.parse(readFileSync(path, "utf8"));

function modelFor(fixture: FixtureCase, answer: (call: ReplayCall) => ReplayResponse) {
  const fetch = createReplayFetch((call) => {
    const download = fixture.downloads?.[call.url];
    if (download !== undefined)
      return { body: download.body, headers: { "content-type": download.contentType } };
    return answer(call);
  });
  const model = createLanguageModel(fixture.provider, fixture.options, {
    fetch,
    ...(fixture.env === undefined ? {} : { env: fixture.env }),
  });
  return { model, fetch };
}

async function collect(model: LanguageModel, messages: ChatMessage[]) {
  const events: ModelStreamEvent[] = [];
  for await (const event of model.stream(messages)) events.push(event);
  return events;
}

/** An expected reading, in the fixtures' layout (one line per field, `usage` on one line). */
function writeExpected(path: string, reading: Record<string, unknown>): void {
  const lines = Object.entries(reading).map(([key, value]) => {
    const text =
      key === "usage"
        ? JSON.stringify(value)
            .replace(/([{,])/g, "$1 ")
            .replace(/}/, " }")
            .replace(/":/g, '": ')
        : JSON.stringify(value);
    return `  ${JSON.stringify(key)}: ${text}`;
  });
  writeFileSync(path, `{\n${lines.join(",\n")}\n}\n`);
}

function summarizeStream(events: ModelStreamEvent[]) {
  expect(events[0]?.type).toBe("response-start");
  const finish = events[events.length - 1];
  if (finish?.type !== "finish") throw new Error(`the last event is ${finish?.type}, not finish`);
  expect(events.filter((event) => event.type === "finish")).toHaveLength(1);
  const text = events.map((event) => (event.type === "text-delta" ? event.text : "")).join("");
  return {
    text,
    finishReason: finish.finishReason,
    rawFinishReason: finish.rawFinishReason,
    usage: finish.usage,
    model: finish.model,
  };
}

for (const name of readdirSync(root).sort()) {
  const folder = join(root, name);
  const fixture = readJson(join(folder, "case.json")) as FixtureCase;
  const file = (relative: string) => join(folder, relative);

  describe(`${name} (${fixture.provider})`, () => {
    for (const [fileName, stream] of [
      ["request.json", false],
      ["stream-request.json", true],
    ] as const) {
      if (!existsSync(file(fileName)) && !update) continue;
      it(`builds the ${stream ? "streaming" : "non-streaming"} request`, async () => {
        const { model } = modelFor(fixture, () => ({ body: "{}" }));
        const built = redactRequest(await model.buildRequest(fixture.messages, { stream }));
        if (update) writeFileSync(file(fileName), `${JSON.stringify(built, null, 2)}\n`);
        expect(built).toEqual(readJson(file(fileName)));
      });
    }

    if (existsSync(file("response.json"))) {
      it("reads the recorded response, sending exactly the built request", async () => {
        const recorded = readFileSync(file("response.json"), "utf8");
        const { model, fetch } = modelFor(fixture, () => ({
          body: recorded,
          headers: { "content-type": "application/json" },
        }));
        const result = await model.generate(fixture.messages);
        const { text, finishReason, rawFinishReason, usage, model: answeredBy } = result;
        const reading = { text, finishReason, rawFinishReason, usage, model: answeredBy };
        if (update) writeExpected(file("response.expected.json"), reading);
        expect(reading).toEqual(readJson(file("response.expected.json")));
        expect(result.rawResponse).toEqual(JSON.parse(recorded));
        const sent = fetch.calls[fetch.calls.length - 1];
        const built = await model.buildRequest(fixture.messages, { stream: false });
        expect(sent).toEqual({ url: built.url, method: "POST", headers: built.headers, body: built.body });
      });
    }

    if (existsSync(file("stream.chunks.txt"))) {
      const transcript = readFileSync(file("stream.chunks.txt"), "utf8");
      const expected = () => readJson(file("stream.expected.json"));
      it("reads the recorded stream in one chunk", async () => {
        const { model } = modelFor(fixture, () => ({
          body: transcript,
          headers: { "content-type": "text/event-stream" },
        }));
        const reading = summarizeStream(await collect(model, fixture.messages));
        if (update) writeExpected(file("stream.expected.json"), reading);
        expect(reading).toEqual(expected());
      });
      it("reads the recorded stream in 20 random byte splits", async () => {
        const bytes = new TextEncoder().encode(transcript).length;
        for (let seed = 1; seed <= 20; seed++) {
          const { model } = modelFor(fixture, () => ({
            body: transcript,
            headers: { "content-type": "text/event-stream" },
            splitAt: randomSplitPoints(bytes, seed, 1 + (seed % 9)),
          }));
          expect(summarizeStream(await collect(model, fixture.messages)), `seed ${seed}`).toEqual(expected());
        }
      });
    }
  });
}
