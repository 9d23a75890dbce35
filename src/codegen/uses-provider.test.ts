import { describe, expect, it } from "vitest";
import type { Client, Ir } from "../ir/index.js";
import { usesProvider } from "./uses-provider.js";

function project(clients: Client[], functionClients: string[]): Ir {
  return {
    clients,
    functions: functionClients.map((client, index) => ({ name: `F${index}`, client })),
  } as unknown as Ir;
}

const openai: Client = { name: "Gpt", provider: "openai", options: {} };

describe("usesProvider", () => {
  it("is true for a declared client of the provider", () => {
    expect(
      usesProvider(project([openai, { name: "B", provider: "aws-bedrock", options: {} }], []), "aws-bedrock"),
    ).toBe(true);
  });

  it("is true for a function's provider/model shorthand and a strategy's entry", () => {
    expect(usesProvider(project([openai], ["aws-bedrock/amazon.nova-lite-v1:0"]), "aws-bedrock")).toBe(true);
    const fallback: Client = {
      name: "Either",
      provider: "fallback",
      options: {
        strategy: {
          kind: "array",
          items: [
            { kind: "string", value: "Gpt" },
            { kind: "string", value: "aws-bedrock/amazon.nova-lite-v1:0" },
          ],
        },
      },
    };
    expect(usesProvider(project([openai, fallback], ["Either"]), "aws-bedrock")).toBe(true);
  });

  it("tells providers apart: a vertex-ai client is not an aws-bedrock one", () => {
    const vertex: Client = { name: "V", provider: "vertex-ai", options: {} };
    expect(usesProvider(project([openai, vertex], ["V"]), "vertex-ai")).toBe(true);
    expect(usesProvider(project([openai, vertex], ["V"]), "aws-bedrock")).toBe(false);
    expect(usesProvider(project([openai], ["vertex-ai/gemini-2.5-flash"]), "vertex-ai")).toBe(true);
  });

  it("is false when nothing names the provider", () => {
    expect(usesProvider(project([openai], ["Gpt", "openai/gpt-4o"]), "aws-bedrock")).toBe(false);
  });
});
