import { describe, expect, it } from "vitest";
import { type Client, emptyIr, type Ir, IrIndex, type RetryPolicy } from "../ir/index.js";
import { ClientRegistry } from "./client-registry.js";
import { resolveClientTree } from "./client-tree.js";
import { BamlInvalidArgumentError } from "./errors.js";
import { planAttempts } from "./plan-attempts.js";
import { retryDelay } from "./retry-delay.js";
import { createRoundRobinPicker } from "./round-robin-picker.js";

function leaf(name: string, retryPolicy?: string): Client {
  return {
    name,
    provider: "openai",
    options: { model: { kind: "string", value: `model-${name}` } },
    ...(retryPolicy ? { retryPolicy } : {}),
  };
}

function strategy(name: string, provider: string, children: string[], extra: Partial<Client> = {}): Client {
  return {
    name,
    provider,
    options: {
      strategy: { kind: "array", items: children.map((child) => ({ kind: "string", value: child })) },
    },
    ...extra,
  };
}

const constant: RetryPolicy = {
  name: "Constant",
  maxRetries: 2,
  strategy: { type: "constant_delay", delayMs: 200 },
};
const backoff: RetryPolicy = {
  name: "Backoff",
  maxRetries: 4,
  strategy: { type: "exponential_backoff", delayMs: 100, multiplier: 2, maxDelayMs: 500 },
};

function project(clients: Client[]): IrIndex {
  const ir: Ir = { ...emptyIr(), clients, retryPolicies: [constant, backoff] };
  return new IrIndex(ir);
}

const firstChild = createRoundRobinPicker(() => 0);
const describePlan = (index: IrIndex, name: string, registry?: ClientRegistry) =>
  planAttempts(resolveClientTree(name, index, registry), firstChild).map(
    (attempt) => `${attempt.client.name}+${attempt.delayMs}`,
  );

describe("retryDelay", () => {
  it("is constant for constant_delay", () => {
    expect([1, 2, 3].map((retry) => retryDelay(constant, retry))).toEqual([200, 200, 200]);
  });
  it("grows by the multiplier and stops at the maximum for exponential_backoff", () => {
    expect([1, 2, 3, 4].map((retry) => retryDelay(backoff, retry))).toEqual([100, 200, 400, 500]);
  });
});

describe("planAttempts", () => {
  it("retries a leaf client with its policy's delays", () => {
    const index = project([leaf("A", "Constant")]);
    expect(describePlan(index, "A")).toEqual(["A+0", "A+200", "A+200"]);
  });

  it("tries fallback children in order, each with its own retries", () => {
    const index = project([leaf("A"), leaf("B", "Constant"), strategy("Chain", "fallback", ["A", "B"])]);
    expect(describePlan(index, "Chain")).toEqual(["A+0", "B+0", "B+200", "B+200"]);
  });

  it("repeats a whole fallback chain under the chain's own policy", () => {
    const index = project([
      leaf("A"),
      leaf("B"),
      strategy("Chain", "fallback", ["A", "B"], { retryPolicy: "Backoff" }),
    ]);
    expect(describePlan(index, "Chain")).toEqual([
      "A+0",
      "B+0",
      "A+100",
      "B+0",
      "A+200",
      "B+0",
      "A+400",
      "B+0",
      "A+500",
      "B+0",
    ]);
  });

  it("flattens nested fallbacks depth first", () => {
    const index = project([
      leaf("A"),
      leaf("B"),
      leaf("C"),
      strategy("Inner", "fallback", ["B", "C"]),
      strategy("Outer", "baml-fallback", ["A", "Inner"]),
    ]);
    expect(describePlan(index, "Outer")).toEqual(["A+0", "B+0", "C+0"]);
  });

  it("rotates round-robin children per call, starting at `start`", () => {
    const index = project([
      leaf("A"),
      leaf("B"),
      leaf("C"),
      strategy("Rotate", "round-robin", ["A", "B", "C"], {
        options: {
          strategy: {
            kind: "array",
            items: ["A", "B", "C"].map((value) => ({ kind: "string" as const, value })),
          },
          start: { kind: "number", value: 1 },
        },
      }),
    ]);
    const picker = createRoundRobinPicker(() => 0);
    const tree = resolveClientTree("Rotate", index);
    const picks = [1, 2, 3, 4].map(() =>
      planAttempts(tree, picker)
        .map((attempt) => attempt.client.name)
        .join(),
    );
    expect(picks).toEqual(["B", "C", "A", "B"]);
  });

  it("starts round-robin at the injected initial index when no `start` is given", () => {
    const index = project([leaf("A"), leaf("B"), strategy("Rotate", "round-robin", ["A", "B"])]);
    const picker = createRoundRobinPicker((count) => count - 1);
    const tree = resolveClientTree("Rotate", index);
    expect([1, 2, 3].map(() => planAttempts(tree, picker)[0]?.client.name)).toEqual(["B", "A", "B"]);
  });

  it("reads the provider/model shorthand as a leaf with that model", () => {
    const tree = resolveClientTree("anthropic/claude-3-5-haiku", project([]));
    expect(tree).toEqual({
      kind: "leaf",
      client: {
        name: "anthropic/claude-3-5-haiku",
        provider: "anthropic",
        options: { model: { kind: "string", value: "claude-3-5-haiku" } },
      },
    });
  });

  it("lets a ClientRegistry client shadow a declared one", () => {
    const registry = new ClientRegistry();
    registry.addLlmClient("A", "anthropic", { model: "claude" }, "Constant");
    const index = project([leaf("A")]);
    const plan = planAttempts(resolveClientTree("A", index, registry), firstChild);
    expect(plan.map((attempt) => [attempt.client.provider, attempt.delayMs])).toEqual([
      ["anthropic", 0],
      ["anthropic", 200],
      ["anthropic", 200],
    ]);
  });

  it("names unknown clients, missing policies and cycles", () => {
    const index = project([
      leaf("A", "Missing"),
      strategy("X", "fallback", ["Y"]),
      strategy("Y", "fallback", ["X"]),
      strategy("Empty", "fallback", []),
    ]);
    expect(() => resolveClientTree("Nope", index)).toThrow(
      /Unknown client "Nope".*Declared clients: A, Empty, X, Y/,
    );
    expect(() => resolveClientTree("A", index)).toThrow(/retry_policy Missing, which is not declared/);
    expect(() => resolveClientTree("X", index)).toThrow(/cycle: X → Y → X/);
    expect(() => resolveClientTree("Empty", index)).toThrow(BamlInvalidArgumentError);
  });
});
