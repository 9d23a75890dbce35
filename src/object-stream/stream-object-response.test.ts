import { describe, expect, it } from "vitest";
import * as z from "zod";
import { readStream } from "../stream-client/index.js";
import { createStreamParser } from "../zod/index.js";
import { streamObjectResponse } from "./stream-object-response.js";

const schema = z.object({ title: z.string(), steps: z.array(z.string()).min(1) });

/** A text stream that records how far it was read and whether it was returned early. */
function textStream(chunks: string[]) {
  const state = { read: 0, returned: false };
  const iterable: AsyncIterable<string> = {
    [Symbol.asyncIterator]: () => ({
      next: async () => {
        const value = chunks[state.read];
        if (value === undefined) return { done: true, value: undefined };
        state.read++;
        return { done: false, value };
      },
      return: async () => {
        state.returned = true;
        return { done: true, value: undefined };
      },
    }),
  };
  return { iterable, state };
}

async function lines(response: Response): Promise<Record<string, unknown>[]> {
  return (await response.text())
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("streamObjectResponse", () => {
  it("sends a partial per change of a chatty, fenced answer, then the final value", async () => {
    const answer = 'Sure!\n```json\n{"title": "Pancakes", "steps": ["Whisk", "Fry"]}\n```\nEnjoy!';
    const { iterable } = textStream(answer.match(/.{1,6}/gs) ?? []);
    const response = streamObjectResponse(iterable, createStreamParser(schema));
    expect(response.headers.get("content-type")).toContain("application/x-ndjson");
    const sent = await lines(response);
    const partials = sent.filter((line) => "partial" in line).map((line) => line.partial);
    expect(partials.length).toBeGreaterThan(2);
    expect(partials).toContainEqual({ title: "Pancakes", steps: ["Whisk"] });
    expect(sent.at(-1)).toEqual({ final: { title: "Pancakes", steps: ["Whisk", "Fry"] } });
  });

  it("reads back with readStream, as useSaplingObject does", async () => {
    const { iterable } = textStream(['{"title": "Tea", ', '"steps": ["Boil"]}']);
    const reader = readStream(streamObjectResponse(iterable, createStreamParser(schema)));
    const seen: unknown[] = [];
    for await (const partial of reader) seen.push(partial);
    expect(seen.length).toBeGreaterThan(0);
    expect(await reader.getFinalResponse()).toEqual({ title: "Tea", steps: ["Boil"] });
  });

  it("ends with an error line carrying the raw text and the schema's issues", async () => {
    const refusal = "I'm sorry, I can't write recipes.";
    const errors: unknown[] = [];
    const { iterable } = textStream([refusal]);
    const sent = await lines(
      streamObjectResponse(iterable, createStreamParser(schema), { onError: (error) => errors.push(error) }),
    );
    const last = sent.at(-1)?.error as Record<string, unknown>;
    expect(last.name).toBe("SchemaParseError");
    expect(last.raw_output).toBe(refusal);
    expect(errors).toHaveLength(1);

    const empty = textStream(['{"title": "Toast", "steps": []}']);
    const invalid = await lines(streamObjectResponse(empty.iterable, createStreamParser(schema)));
    const failure = invalid.at(-1)?.error as { code: string; issues: { path: unknown[] }[] };
    expect(failure.code).toBe("validation-failed");
    expect(failure.issues[0]?.path).toEqual(["steps"]);
  });

  it("returns the text stream's iterator when the client goes away", async () => {
    const { iterable, state } = textStream(['{"title": "A', "B", "C", "D", '"}']);
    const response = streamObjectResponse(iterable, createStreamParser(schema));
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
    expect(state.returned).toBe(true);
    expect(state.read).toBeLessThan(5);
  });
});
