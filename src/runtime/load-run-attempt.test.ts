import { afterEach, describe, expect, it, vi } from "vitest";
import type { Client } from "../ir/index.js";
import { BamlClientError } from "./errors.js";

const client = { name: "Fast", provider: "openai", options: {} } as unknown as Client;

describe("loadRunAttempt", () => {
  afterEach(() => {
    vi.doUnmock("./run-attempt.js");
    vi.resetModules();
  });

  it("loads the call path on first use", async () => {
    const { loadRunAttempt } = await import("./load-run-attempt.js");
    const { runAttempt } = await import("./run-attempt.js");
    expect(await loadRunAttempt(client)).toBe(runAttempt);
  });

  it("fails the attempt as a client error that says what was not loaded and how to fix it", async () => {
    vi.resetModules();
    vi.doMock("./run-attempt.js", () => {
      throw new Error("Failed to fetch dynamically imported module: /assets/run-attempt-X.js");
    });
    const { loadRunAttempt } = await import("./load-run-attempt.js");
    const error = await loadRunAttempt(client).catch((caught: unknown) => caught);
    expect(BamlClientError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ clientName: "Fast", provider: "openai" });
    expect((error as Error).message).toMatch(
      /^Client "Fast" \(openai\): openai: could not load the call path, which Sapling loads on the first call that needs it: .+\. A bundled application must serve the bundle's chunk files next to its entry/,
    );
  });
});
