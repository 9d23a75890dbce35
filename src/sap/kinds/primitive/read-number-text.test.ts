import { describe, expect, it } from "vitest";
import { readNumberText, roundHalfAwayFromZero } from "./read-number-text.js";

describe("readNumberText", () => {
  it.each([
    ["42", 42, true],
    [" -3.5 ", -3.5, true],
    ["1,234", 1234, true],
    ["$1,299.99", 1299.99, false],
    ["50%", 50, false],
    ["3/4", 0.75, false],
    ["12 units", 12, false],
    ["about 7 years", 7, false],
    ["₩50,000", 50000, false],
    ["8 years (8 total)", 8, false],
  ])("%j → %d", (text, value, plain) => {
    expect(readNumberText(text)).toMatchObject({ ok: true, value, plain });
  });

  it.each(["$4.50", "€12", "£0.5", "¥1000.", "₩7"])(
    "the price %j reads as the same price written in a sentence",
    (price) => {
      const reading = readNumberText(price);
      expect(reading).toMatchObject({ ok: true, plain: false });
      expect(reading).toEqual(readNumberText(`it costs ${price}`));
    },
  );

  it.each([
    ["1, 2, 3", "several"],
    ["2020-2024", "several"],
    ["three", "none"],
    ["0x1F", "none"],
    ["", "none"],
  ])("%j is not one number (%s)", (text, reason) => {
    expect(readNumberText(text)).toMatchObject({ ok: false, reason });
  });
});

describe("roundHalfAwayFromZero", () => {
  it.each([
    [7.5, 8],
    [-2.5, -3],
    [7.4, 7],
    [-0.4, 0],
  ])("%d → %d", (value, rounded) => {
    expect(Object.is(roundHalfAwayFromZero(value), rounded)).toBe(true);
  });
});
