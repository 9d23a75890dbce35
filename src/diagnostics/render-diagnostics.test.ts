import { describe, expect, it } from "vitest";
import { createDiagnostic } from "./create-diagnostic.js";
import { hasErrors, sortDiagnostics } from "./diagnostic.js";
import { diagnosticCodes } from "./diagnostic-codes.js";
import { renderCodeFrame } from "./render-code-frame.js";
import { renderDiagnostic, renderDiagnostics, summarizeDiagnostics } from "./render-diagnostics.js";
import { suggestName } from "./suggest-name.js";

const source = "class A {\n  name Strng\n}\n";
const unknown = createDiagnostic(
  "unknown-type",
  { name: "Strng", suggestion: "string" },
  { file: "a.baml", span: { start: 17, end: 22 } },
);

describe("renderDiagnostic", () => {
  it("prints severity, code, file:line:col, a code frame with carets, and the hint", () => {
    expect(renderDiagnostic(unknown, { "a.baml": source })).toBe(
      [
        'error[E0101]: Unknown type "Strng".',
        "  --> a.baml:2:8",
        "  |",
        "2 |   name Strng",
        "  |        ^^^^^",
        '  = hint: did you mean "string"?',
      ].join("\n"),
    );
  });

  it("renders notes with their own location, and omits the frame when the file is unknown", () => {
    const duplicate = createDiagnostic(
      "duplicate-field",
      { name: "name", owner: "A" },
      { file: "b.baml", span: { start: 0, end: 1 } },
      [{ message: "first declared here", file: "a.baml", span: { start: 12, end: 16 } }],
    );
    expect(renderDiagnostic(duplicate, { "a.baml": source })).toBe(
      [
        'error[E0103]: Field "name" appears more than once in "A".',
        "  --> b.baml",
        "  = hint: remove or rename one of them",
        "  = note: first declared here (a.baml:2:3)",
      ].join("\n"),
    );
  });

  it("separates several diagnostics with blank lines and summarizes them", () => {
    const warning = createDiagnostic(
      "unsupported-output-type",
      { found: "go" },
      { file: "a.baml", span: { start: 0, end: 5 } },
    );
    expect(renderDiagnostics([unknown, warning], { "a.baml": source }).split("\n\n")).toHaveLength(2);
    expect(summarizeDiagnostics([unknown, warning])).toBe("1 error, 1 warning");
    expect(summarizeDiagnostics([])).toBe("no problems");
    expect(hasErrors([warning])).toBe(false);
    expect(hasErrors([warning, unknown])).toBe(true);
  });

  it("sorts by file, then offset", () => {
    const later = { ...unknown, span: { start: 30, end: 31 } };
    const otherFile = { ...unknown, file: "0.baml" };
    expect(sortDiagnostics([later, unknown, otherFile])).toEqual([otherFile, unknown, later]);
  });
});

describe("renderCodeFrame", () => {
  it("underlines every line of a multi-line span, widening the gutter for two-digit lines", () => {
    const text = `${"x\n".repeat(8)}first line\nsecond line\n`;
    const start = text.indexOf("line");
    const end = text.indexOf("second") + 6;
    expect(renderCodeFrame(text, { start, end })).toBe(
      ["   |", " 9 | first line", "   |       ^^^^", "10 | second line", "   | ^^^^^^"].join("\n"),
    );
  });

  it("shows one caret for an empty span at the end of the text", () => {
    expect(renderCodeFrame("abc", { start: 3, end: 3 })).toBe(["  |", "1 | abc", "  |    ^"].join("\n"));
  });

  it("handles CRLF line endings and tabs", () => {
    expect(renderCodeFrame("a\r\n\tbad\r\n", { start: 4, end: 7 })).toBe(
      ["  |", "2 |  bad", "  |  ^^^"].join("\n"),
    );
  });
});

describe("registry", () => {
  it("gives every code a unique, well-formed identifier", () => {
    const codes = Object.values(diagnosticCodes).map((definition) => definition.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const [name, definition] of Object.entries(diagnosticCodes)) {
      expect(definition.code, name).toMatch(definition.severity === "error" ? /^E\d{4}$/ : /^W\d{4}$/);
    }
  });
});

describe("suggestName", () => {
  it.each([
    ["Strng", ["string", "int"], "string"],
    ["person", ["Person"], "Person"],
    ["exponential", ["constant_delay", "exponential_backoff"], "exponential_backoff"],
    ["output_directory", ["output_dir", "version"], "output_dir"],
    ["B", ["A"], undefined],
    ["Totally", ["Different"], undefined],
  ])("%s among %j → %s", (name, candidates, expected) => {
    expect(suggestName(name, candidates)).toBe(expected);
  });
});
