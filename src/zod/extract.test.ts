import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { BamlValidationError, ClientRegistry, Collector } from "../runtime/index.js";
import { answer, type MockLlmServer, startMockLlmServer } from "../testing/index.js";
import { extract, extractStream } from "./index.js";

const Invoice = z.object({
  number: z.string(),
  total: z.number().positive(),
  lines: z.array(z.object({ item: z.string(), amount: z.number() })).min(1),
});

let server: MockLlmServer;
beforeAll(async () => {
  server = await startMockLlmServer();
});
afterAll(async () => {
  await server.close();
});

function mockClient(): ClientRegistry {
  const registry = new ClientRegistry();
  registry.addLlmClient("Mock", "openai-generic", { base_url: server.baseUrls.openai, model: "mock-model" });
  registry.setPrimary("Mock");
  return registry;
}

/** The last message's text of a recorded request. */
function lastMessage(index: number): string {
  const messages = server.requests[index]?.body.messages as { role: string; content: unknown }[];
  return JSON.stringify(messages.at(-1));
}

describe("extract with a Zod schema", () => {
  it("puts the compact schema in the prompt and reads a messy answer into the Zod type", async () => {
    server.requests.length = 0;
    server.script(
      answer("Sure:\n```json\n{number: 'INV-7', total: '12.50', lines: [{item: 'tea', amount: 12.5}],}\n```"),
    );
    const invoice = await extract(Invoice, {
      clientRegistry: mockClient(),
      instructions: "Read the invoice.",
      prompt: "Invoice INV-7: tea 12.50 {{ not a template }}",
    });
    expect(invoice).toEqual({ number: "INV-7", total: 12.5, lines: [{ item: "tea", amount: 12.5 }] });
    const sent = server.requests[0]?.promptText ?? "";
    expect(sent).toContain("Read the invoice.");
    expect(sent).toContain("Answer in JSON using this schema:");
    // The user's text is an argument, never template text.
    expect(sent).toContain("{{ not a template }}");
  });

  it("re-asks once when Zod rejects the value, showing the model the issues, and succeeds", async () => {
    server.requests.length = 0;
    server.script(
      answer('{"number": "INV-8", "total": -3, "lines": []}'),
      answer('{"number": "INV-8", "total": 3, "lines": [{"item": "pen", "amount": 3}]}'),
    );
    const collector = new Collector();
    const invoice = await extract(Invoice, { clientRegistry: mockClient(), prompt: "INV-8", collector });
    expect(invoice.total).toBe(3);
    expect(server.requests).toHaveLength(2);
    // The second request carries the first answer and Zod's issues, by path.
    expect(lastMessage(1)).toContain("$.total");
    expect(lastMessage(1)).toContain("$.lines");
    expect(JSON.stringify(server.requests[1]?.body.messages)).toContain('\\"total\\": -3');
    // The Collector counts both requests of the one extraction.
    expect(collector.logs).toHaveLength(1);
    expect(collector.last?.calls).toHaveLength(2);
  });

  it("fails with the raw answer and Zod's issues when the re-asks run out", async () => {
    server.requests.length = 0;
    server.script(answer('{"number": "A", "total": -1, "lines": []}'));
    const error = await extract(Invoice, { clientRegistry: mockClient(), prompt: "A", maxRetries: 0 }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(BamlValidationError.isInstance(error)).toBe(true);
    expect((error as BamlValidationError).rawOutput).toBe('{"number": "A", "total": -1, "lines": []}');
    expect((error as BamlValidationError).message).toMatch(/\$\.total/);
    expect(server.requests).toHaveLength(1);
  });

  it("streams typed partials, then the validated value", async () => {
    server.script(
      answer('{"number": "INV-9", "total": 4, "lines": [{"item": "ink", "amount": 4}]}', { chunkSize: 5 }),
    );
    const stream = extractStream(Invoice, { clientRegistry: mockClient(), prompt: "INV-9" });
    const partials: unknown[] = [];
    for await (const partial of stream) partials.push(partial);
    expect(partials.length).toBeGreaterThan(1);
    expect(partials[0]).not.toEqual(partials.at(-1));
    expect(await stream.final()).toEqual({ number: "INV-9", total: 4, lines: [{ item: "ink", amount: 4 }] });
  });

  it("says what is missing when neither a prompt nor a model is given", async () => {
    await expect(extract(Invoice, { clientRegistry: mockClient() })).rejects.toThrow(/`prompt`/);
    await expect(extract(Invoice, { prompt: "x" })).rejects.toThrow(/`client`/);
  });
});
