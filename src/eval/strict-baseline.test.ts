import { describe, expect, it } from "vitest";
import { IrIndex } from "../ir/index.js";
import { compile } from "../language/index.js";
import { percentile } from "./cell-summary.js";
import { repairedBaseline, strictBaseline } from "./strict-baseline.js";

const { ir } = compile({
  "main.baml": `
enum Tier {
  FREE
  PRO @alias("pro")
}
class Account {
  name string
  seats int
  tier Tier
  note string?
}
function Read(text: string) -> Account {
  client "openai/gpt-4o-mini"
  prompt #"{{ text }}"#
}
`,
});
if (!ir) throw new Error("the test schema does not compile");
const index = new IrIndex(ir);
const type = { kind: "class" as const, name: "Account" };
const options = { wrapped: false };
/** A stand-in repair that only drops trailing commas: enough to tell the pipelines apart. */
const dropTrailingCommas = (text: string) => text.replace(/,\s*([}\]])/g, "$1");

describe("baselines", () => {
  it("JSON.parse + validation reads exact JSON only, mapping aliases to names", () => {
    expect(strictBaseline(index, type, '{"name": "A", "seats": 3, "tier": "pro"}', options)).toEqual({
      ok: true,
      value: { name: "A", seats: 3, tier: "PRO", note: null },
    });
    expect(strictBaseline(index, type, '{"name": "A", "seats": "3", "tier": "FREE"}', options)).toEqual({
      ok: false,
      reason: "$.seats: expected an int, found string",
    });
    expect(strictBaseline(index, type, '{"name": "A", "seats": 3.5, "tier": "FREE"}', options).ok).toBe(
      false,
    );
    expect(strictBaseline(index, type, '{"name": "A", "tier": "FREE"}', options)).toEqual({
      ok: false,
      reason: "$.seats: missing",
    });
    expect(
      strictBaseline(index, type, '```json\n{"name": "A", "seats": 3, "tier": "FREE"}\n```', options),
    ).toEqual({
      ok: false,
      reason: "not JSON",
    });
  });

  it("the repair pipeline takes the first fence, repairs it, then validates the same way", () => {
    const fenced = 'Sure!\n```json\n{"name": "A", "seats": 3, "tier": "FREE",}\n```\nAnything else?';
    expect(repairedBaseline(index, type, fenced, dropTrailingCommas, options)).toEqual({
      ok: true,
      value: { name: "A", seats: 3, tier: "FREE", note: null },
    });
    // Repair fixes syntax, not types: "Strong"-style values still fail validation.
    expect(
      repairedBaseline(index, type, '{"name": "A", "seats": 3, "tier": "Pro"}', dropTrailingCommas, options)
        .ok,
    ).toBe(false);
    expect(
      strictBaseline(index, { kind: "list", item: { kind: "primitive", name: "int" } }, '{"value": [1, 2]}', {
        wrapped: true,
      }),
    ).toEqual({ ok: true, value: [1, 2] });
  });

  it("takes nearest-rank percentiles", () => {
    const sorted = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100];
    expect(percentile(sorted, 0.5)).toBe(50);
    expect(percentile(sorted, 0.95)).toBe(100);
    expect(percentile([7], 0.95)).toBe(7);
    expect(percentile([], 0.5)).toBeNull();
  });
});
