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

describe("matchText: exact case decides (issue 30)", () => {
  const numbers: MatchOption[] = ["ONE", "TWO", "THREE"].map((value) => ({
    value,
    names: [value],
    descriptions: [],
  }));
  // Aliases that differ only in case, as BAML compiles them (`HOM_DOM @alias("AA")`, …).
  const genotypes: MatchOption[] = [
    { value: "HOM_DOM", names: ["AA"], otherNames: ["HOM_DOM"], descriptions: [] },
    { value: "HET", names: ["Aa"], otherNames: ["HET"], descriptions: [] },
    { value: "HOM_REC", names: ["aa"], otherNames: ["HOM_REC"], descriptions: [] },
  ];

  it("a value in exact case beats one named only case-folded", () => {
    expect(matchText('TWO" is one of the correct answers', numbers)).toEqual({
      kind: "substring",
      value: "TWO",
      matched: "TWO",
    });
  });

  it("two values both in exact case stay ambiguous", () => {
    expect(matchText("TWO or THREE", numbers)).toEqual({ kind: "ambiguous", values: ["TWO", "THREE"] });
  });

  it.each([
    ["Aa", "HET"],
    ["AA", "HOM_DOM"],
    [" aa ", "HOM_REC"],
  ])("aliases differing only in case: %j is %s by its exact case", (text, value) => {
    expect(matchText(text, genotypes)).toEqual({ kind: "exact", value });
  });

  it("a spelling in none of their cases is ambiguous, not the first declared", () => {
    expect(matchText("aA", genotypes)).toEqual({ kind: "ambiguous", values: ["HOM_DOM", "HET"] });
  });
});
