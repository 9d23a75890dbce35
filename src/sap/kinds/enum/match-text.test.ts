import { describe, expect, it } from "vitest";
import { type MatchOption, matchText } from "./match-text.js";
import { normalizeWords } from "./normalize-words.js";

const decisions: MatchOption[] = ["STRONG_HIRE", "HIRE", "LEAN_REJECT", "REJECT"].map((value) => ({
  value,
  names: [value],
  descriptions: [],
}));

describe("normalizeWords", () => {
  it.each([
    ["STRONG_HIRE", ["strong", "hire"]],
    ["StrongHire", ["strong", "hire"]],
    ["strong-hire", ["strong", "hire"]],
    ["HTTPServer", ["http", "server"]],
    ["Énglish!", ["english"]],
    ["한국어 텍스트", ["한국어", "텍스트"]],
  ])("%s → %j", (text, words) => {
    expect(normalizeWords(text)).toEqual(words);
  });
});

describe("matchText", () => {
  it.each([
    ["HIRE", { kind: "exact", value: "HIRE" }],
    ["Strong Hire", { kind: "caseFold", value: "STRONG_HIRE", matched: "STRONG_HIRE" }],
    ["lean reject", { kind: "caseFold", value: "LEAN_REJECT", matched: "LEAN_REJECT" }],
    ["stronghire", { kind: "caseFold", value: "STRONG_HIRE", matched: "STRONG_HIRE" }],
    ["I'd call it a strong hire.", { kind: "substring", value: "STRONG_HIRE", matched: "STRONG_HIRE" }],
    ["not a reject, a hire", { kind: "ambiguous", values: ["REJECT", "HIRE"] }],
    ["HIRRE", { kind: "typo", value: "HIRE", matched: "HIRE" }],
    ["hired", { kind: "typo", value: "HIRE", matched: "HIRE" }],
    ["rehire", { kind: "none" }],
    [
      "I would not call this a strong hire",
      { kind: "negated", value: "STRONG_HIRE", matched: "STRONG_HIRE" },
    ],
    ["No concerns at all: hire", { kind: "substring", value: "HIRE", matched: "HIRE" }],
    ["", { kind: "none" }],
  ])("%j", (text, outcome) => {
    expect(matchText(text, decisions)).toEqual(outcome);
  });

  it("matches descriptions exactly (normalized), not as substrings", () => {
    const options: MatchOption[] = [{ value: "LOW", names: ["LOW"], descriptions: ["Can wait a week"] }];
    expect(matchText("can wait a week.", options)).toEqual({ kind: "description", value: "LOW" });
    expect(matchText("this can wait a week or two", options)).toEqual({ kind: "none" });
  });

  it("counts whole words only", () => {
    const options: MatchOption[] = [{ value: "OTHER", names: ["OTHER"], descriptions: [] }];
    expect(matchText("another one", options)).toEqual({ kind: "none" });
  });
});
