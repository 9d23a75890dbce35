import { afterEach, describe, expect, it, vi } from "vitest";
import { BamlClientError } from "./errors.js";

const client = { name: "Fast", provider: "openai" };

describe("loadCallPath", () => {
  afterEach(() => {
    vi.doUnmock("./run-call.js");
    vi.resetModules();
  });

  it("loads the call path on first use", async () => {
    const { loadCallPath } = await import("./load-call-path.js");
    const { runCall } = await import("./run-call.js");
    expect((await loadCallPath(client)).runCall).toBe(runCall);
  });

  it("fails the call as a client error that says what was not loaded and how to fix it", async () => {
    vi.resetModules();
    vi.doMock("./run-call.js", () => {
      throw new Error("Failed to fetch dynamically imported module: /assets/run-call-X.js");
    });
    const { loadCallPath } = await import("./load-call-path.js");
    const error = await loadCallPath(client).catch((caught: unknown) => caught);
    expect(BamlClientError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ clientName: "Fast", provider: "openai" });
    expect((error as Error).message).toMatch(
      /^Client "Fast" \(openai\): openai: could not load the call path, which Sapling loads on the first call that needs it: .+\. A bundled application must serve the bundle's chunk files next to its entry/,
    );
  });
});
