import { describe, expect, it } from "vitest";
import { HttpError } from "./error-response.js";
import { findInexactInteger } from "./find-inexact-integer.js";
import { readJsonObject } from "./read-request-body.js";

const request = (body: string) => new Request("http://sapling.test/call/F", { method: "POST", body });

describe("readJsonObject", () => {
  it("refuses an integer beyond 2^53 with 400 instead of rounding it", async () => {
    const failure = await readJsonObject(request('{"id": 9007199254740993}'), 1000).catch((error) => error);
    expect(failure).toBeInstanceOf(HttpError);
    expect(failure.status).toBe(400);
    expect(failure.message).toContain("9007199254740993 (at character 7)");
    expect(failure.message).toContain("would silently become 9007199254740992");
    expect(failure.message).toContain("as a string");
  });

  it("reads integers up to 2^53, floats, and long digit runs inside strings", async () => {
    const body =
      '{"max": 9007199254740991, "min": -9007199254740991, "big": 1.5e300, "f": 12345678901234567.5,' +
      ' "id": "90071992547409931234", "escaped": "\\" 90071992547409931234"}';
    expect(await readJsonObject(request(body), 1000)).toEqual({
      max: 9007199254740991,
      min: -9007199254740991,
      big: 1.5e300,
      f: Number("12345678901234567.5"),
      id: "90071992547409931234",
      escaped: '" 90071992547409931234',
    });
  });
});

describe("findInexactInteger", () => {
  it.each([
    ['{"a": [1, -9007199254740993]}', { literal: "-9007199254740993", offset: 10 }],
    ['{"a": {"b": 123456789012345678901234}}', { literal: "123456789012345678901234", offset: 12 }],
    ['{"a": "9007199254740993", "b": 9007199254740993}', { literal: "9007199254740993", offset: 31 }],
    ["[9007199254740991]", undefined],
    ['{"a": 90071992547409.93}', undefined],
  ])("finds the first inexact integer of %s", (text, found) => {
    expect(findInexactInteger(text)).toEqual(found);
  });
});
