import { describe, expect, it } from "vitest";
import { providerBatchLimits, splitProviderBatches } from "./split-provider-batches.js";

const entry = (id: string, bytes: number) => ({ id, text: "x".repeat(bytes) });

describe("splitProviderBatches", () => {
  it("keeps the providers' published limits", () => {
    expect(providerBatchLimits).toEqual({
      openai: { requests: 50_000, bytes: 200_000_000 },
      anthropic: { requests: 100_000, bytes: 256_000_000 },
    });
  });

  it("cuts at the request count, in order", () => {
    const entries = Array.from({ length: 7 }, (_, index) => entry(`r${index}`, 10));
    expect(
      splitProviderBatches(entries, { requests: 3, bytes: 1_000_000 }).map((group) =>
        group.map((item) => item.id),
      ),
    ).toEqual([["r0", "r1", "r2"], ["r3", "r4", "r5"], ["r6"]]);
  });

  it("cuts before the entry that would pass the byte limit (each entry plus a separator, plus the envelope)", () => {
    // 64 bytes of envelope, then 100 + 1 per entry: two fit in 266, a third does not.
    const entries = [entry("a", 100), entry("b", 100), entry("c", 100)];
    expect(splitProviderBatches(entries, { requests: 10, bytes: 266 }).map((group) => group.length)).toEqual([
      2, 1,
    ]);
    expect(splitProviderBatches(entries, { requests: 10, bytes: 265 }).map((group) => group.length)).toEqual([
      1, 1, 1,
    ]);
    // Bytes, not characters: "é" is two.
    expect(
      splitProviderBatches([entry("a", 99), { id: "b", text: "é".repeat(51) }], { requests: 10, bytes: 265 }),
    ).toHaveLength(2);
  });

  it("refuses an entry bigger than a whole batch, and a limit below 1", () => {
    expect(() => splitProviderBatches([entry("big", 500)], { requests: 5, bytes: 300 })).toThrow(
      'row "big"\'s request is 501 bytes, more than a provider batch holds (300 bytes)',
    );
    expect(() => splitProviderBatches([], { requests: 0, bytes: 300 })).toThrow(
      "provider batch limit requests must be a whole number of at least 1, got 0",
    );
  });
});
