import { describe, expect, it } from "vitest";
import { compile } from "../../language/index.js";
import { selectTestCases } from "./test-cases.js";

const { ir } = compile({
  "main.baml": `
client<llm> Mock {
  provider openai-generic
  options { base_url "http://127.0.0.1:1/v1" model "m" }
}
function ExtractResume(text: string) -> string {
  client Mock
  prompt #"{{ text }}"#
}
function ExtractInvoice(text: string) -> string {
  client Mock
  prompt #"{{ text }}"#
}
test Short {
  functions [ExtractResume, ExtractInvoice]
  args { text "a" }
}
test Long {
  functions [ExtractResume]
  args { text "b" }
}
test Invoice2 {
  functions [ExtractInvoice]
  args { text "c" }
}
`,
});
if (!ir) throw new Error("fixture does not compile");

function ids(include: string[], exclude: string[] = []): string[] {
  return selectTestCases(ir as NonNullable<typeof ir>, { include, exclude }).map((item) => item.id);
}

describe("selectTestCases", () => {
  it.each([
    [
      [],
      [],
      ["ExtractResume::Short", "ExtractInvoice::Short", "ExtractResume::Long", "ExtractInvoice::Invoice2"],
    ],
    [["ExtractResume::"], [], ["ExtractResume::Short", "ExtractResume::Long"]],
    [["::Short"], [], ["ExtractResume::Short", "ExtractInvoice::Short"]],
    [["ExtractInvoice::Short"], [], ["ExtractInvoice::Short"]],
    [["Extract*::L*"], [], ["ExtractResume::Long"]],
    [["*::Invoice?"], [], ["ExtractInvoice::Invoice2"]],
    [["Long"], [], ["ExtractResume::Long"]],
    [["ExtractInvoice"], [], ["ExtractInvoice::Short", "ExtractInvoice::Invoice2"]],
    [["Extract*"], ["::Short"], ["ExtractResume::Long", "ExtractInvoice::Invoice2"]],
    [[], ["ExtractResume"], ["ExtractInvoice::Short", "ExtractInvoice::Invoice2"]],
    [["ExtractResume::Long"], ["*::Long"], []],
    [["Extract.*"], [], []],
  ])("include %j exclude %j", (include, exclude, expected) => {
    expect(ids(include, exclude)).toEqual(expected);
  });
});

describe("tests BAML accepts with a warning", () => {
  const { ir: warned, diagnostics } = compile({
    "main.baml": `
function Summarize(text: string) -> string {
  client "openai/gpt-4o"
  prompt #"{{ text }}"#
}
test Both {
  functions [Missing, Summarize]
  args {
    text "first"
    text "last"
  }
}
test OnlyMissing {
  functions [Missing]
  args { text "a" }
}
`,
  });

  it("compiles with warnings only", () => {
    expect(diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["W0716", "W0717", "W0716"]);
    expect(warned).toBeDefined();
  });

  it("skips the function that does not exist, and the last repeated argument wins", () => {
    const cases = selectTestCases(warned as NonNullable<typeof warned>, { include: [], exclude: [] });
    expect(cases.map((item) => item.id)).toEqual(["Summarize::Both"]);
    expect(warned?.tests.find((test) => test.name === "Both")?.args).toEqual({
      text: { kind: "string", value: "last" },
    });
  });
});
