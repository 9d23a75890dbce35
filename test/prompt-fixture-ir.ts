/**
 * Builds the IR of a prompt fixture case with the real front end (`language.compile`). Cases marked
 * `--- parser: subset` describe schemas BAML syntax cannot express or the compiler rejects on purpose (a
 * description ending in spaces, media in an output type added at run time); they are read by the small
 * fixture reader instead, which builds the same IR shapes.
 */
import type { Ir, Type } from "../src/ir/index.js";
import { compile, parseTypeExpression } from "../src/language/index.js";
import type { FixtureCase } from "./prompt-fixture-cases.js";
import { parseFixtureSchema, parseFixtureType } from "./prompt-fixture-schema.js";

/** Clients every render fixture may use without declaring them (appended, so line numbers stay). */
const FIXTURE_CLIENTS = `
client<llm> GPT4o {
  provider openai
  options {
    model "gpt-4o"
  }
}
client<llm> Claude {
  provider anthropic
  options {
    model "claude-3-5-haiku"
  }
}
`;

function usesSubset(fixture: FixtureCase): boolean {
  return fixture.settings.parser?.startsWith("subset") === true;
}

export function fixtureIr(fixture: FixtureCase, options: { withClients?: boolean } = {}): Ir {
  if (usesSubset(fixture)) return parseFixtureSchema(fixture.baml);
  const source = options.withClients ? fixture.baml + FIXTURE_CLIENTS : fixture.baml;
  const { ir, diagnostics } = compile({ "fixture.baml": source });
  const errors = diagnostics.filter((diagnostic) => diagnostic.severity === "error");
  if (!ir || errors.length > 0) {
    throw new Error(
      `fixture "${fixture.name}" does not compile: ${errors.map((error) => error.message).join("; ")}`,
    );
  }
  return ir;
}

export function fixtureType(fixture: FixtureCase, text: string, ir: Ir): Type {
  if (usesSubset(fixture)) return parseFixtureType(text, ir);
  const { type, diagnostics } = parseTypeExpression(text, ir);
  if (!type)
    throw new Error(
      `fixture "${fixture.name}": bad target ${text}: ${diagnostics.map((d) => d.message).join("; ")}`,
    );
  return type;
}
