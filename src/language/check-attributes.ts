import { suggestName } from "../diagnostics/index.js";
import type { Attribute } from "./ast.js";
import { suggestion } from "./check-context.js";
import type { Reporter } from "./reporter.js";

/** Where an attribute list appears; each place allows its own set. */
export type AttributePlace =
  | "field"
  | "enum-value"
  | "parameter"
  | "class"
  | "enum"
  | "type"
  | "return-type"
  | "test"
  | "config";

type ArgumentShape = "none" | "string" | "check" | "assert";

const shapes: Record<string, ArgumentShape> = {
  alias: "string",
  description: "string",
  skip: "none",
  check: "check",
  assert: "assert",
  dynamic: "none",
  "stream.done": "none",
  "stream.not_null": "none",
  "stream.with_state": "none",
};

/** Attributes that may be given several times. */
const repeatable = new Set(["check", "assert"]);

/**
 * A class's and an enum's block attributes: one list in BAML (measured with baml-cli 0.226.2).
 * `@@stream.not_null` and `@@stream.with_state` apply to each direct use of the type; `@@skip` does nothing.
 */
const typeBlockAttributes = [
  "alias",
  "description",
  "dynamic",
  "check",
  "assert",
  "skip",
  "stream.done",
  "stream.not_null",
  "stream.with_state",
];

const allowed: Record<AttributePlace, readonly string[]> = {
  field: [
    "alias",
    "description",
    "skip",
    "check",
    "assert",
    "stream.done",
    "stream.not_null",
    "stream.with_state",
  ],
  // BAML also accepts @check, @assert and @stream.* on an enum value; they do nothing (see `ignoredIn`).
  "enum-value": [
    "alias",
    "description",
    "skip",
    "check",
    "assert",
    "stream.done",
    "stream.not_null",
    "stream.with_state",
  ],
  // BAML accepts these after a parameter's type and ignores them (measured with baml-cli 0.226.2).
  parameter: ["alias", "description", "skip"],
  class: typeBlockAttributes,
  enum: typeBlockAttributes,
  type: ["check", "assert", "stream.done", "stream.not_null", "stream.with_state"],
  // After a function's return type BAML also accepts these and ignores them (measured with baml-cli 0.226.2).
  "return-type": [
    "check",
    "assert",
    "stream.done",
    "stream.not_null",
    "stream.with_state",
    "alias",
    "description",
    "skip",
    "dynamic",
  ],
  test: ["check", "assert"],
  config: [],
};

const placeNames: Record<AttributePlace, string> = {
  field: "a class field",
  "enum-value": "an enum value",
  parameter: "a function parameter",
  class: "a class",
  enum: "an enum",
  type: "a type expression",
  "return-type": "a function's return type",
  test: "a test",
  config: "this block",
};

/** Attributes BAML accepts in a place without giving them a meaning there: a warning says so. */
const ignoredIn: Partial<Record<AttributePlace, ReadonlySet<string>>> = {
  "enum-value": new Set(["check", "assert", "stream.done", "stream.not_null", "stream.with_state"]),
  class: new Set(["skip"]),
  enum: new Set(["skip"]),
  "return-type": new Set(["alias", "description", "skip", "dynamic"]),
};

/** Whether a place takes block attributes (`@@x`) rather than field attributes (`@x`). */
const blockPlaces = new Set<AttributePlace>(["class", "enum", "test", "config"]);

/**
 * The attributes a place accepts, as written there (`@alias`, `@@dynamic`), with whether each takes an
 * argument: what the checker allows, for editors to offer.
 */
export function attributesAllowedIn(place: AttributePlace): { written: string; takesArgument: boolean }[] {
  const marker = blockPlaces.has(place) ? "@@" : "@";
  return allowed[place].map((name) => ({
    written: `${marker}${name}`,
    takesArgument: shapes[name] !== "none",
  }));
}

/**
 * Report unknown attributes, attributes in the wrong place or with the wrong marker (`@` vs `@@`),
 * repeated attributes, and malformed arguments. Returns the attributes that passed.
 */
export function checkAttributes(
  attributes: readonly Attribute[],
  place: AttributePlace,
  report: Reporter,
): Attribute[] {
  const valid: Attribute[] = [];
  const seen = new Set<string>();
  const block = blockPlaces.has(place);
  for (const attribute of attributes) {
    const written = `${attribute.block ? "@@" : "@"}${attribute.name}`;
    const shape = shapes[attribute.name];
    if (shape === undefined) {
      report(
        "unknown-attribute",
        {
          name: attribute.name,
          block: attribute.block,
          ...suggestion(markedSuggestion(attribute)),
        },
        attribute.nameSpan,
      );
      continue;
    }
    const allowedHere = allowed[place];
    if (!allowedHere.includes(attribute.name) || attribute.block !== block) {
      const marker = block ? "@@" : "@";
      report(
        "attribute-not-allowed",
        {
          attribute: written,
          place: placeNames[place],
          allowed: allowedHere.map((name) => `${marker}${name}`).join(", "),
        },
        attribute.span,
      );
      continue;
    }
    if (seen.has(attribute.name) && !repeatable.has(attribute.name)) {
      report("duplicate-attribute", { attribute: written }, attribute.span);
      continue;
    }
    seen.add(attribute.name);
    if (ignoredIn[place]?.has(attribute.name)) {
      report("attribute-without-effect", { attribute: written, place: placeNames[place] }, attribute.span);
    }
    if (checkArguments(attribute, shape, written, report)) valid.push(attribute);
  }
  return valid;
}

function checkArguments(
  attribute: Attribute,
  shape: ArgumentShape,
  written: string,
  report: Reporter,
): boolean {
  const args = attribute.args;
  switch (shape) {
    case "none":
      if (args.length === 0) return true;
      report("invalid-attribute-arguments", { attribute: written, expected: "no arguments" }, attribute.span);
      return false;
    case "string":
      if (args.length === 1 && args[0]?.kind === "string") return true;
      report(
        "invalid-attribute-arguments",
        { attribute: written, expected: "one string argument" },
        attribute.span,
      );
      return false;
    case "check":
      if (args.length === 1 && args[0]?.kind === "expression") {
        report("check-without-label", {}, attribute.span);
        return false;
      }
      if (args.length === 2 && isLabel(args[0]) && args[1]?.kind === "expression") return true;
      report(
        "invalid-attribute-arguments",
        { attribute: written, expected: "a label and an expression: @check(label, {{ this > 0 }})" },
        attribute.span,
      );
      return false;
    case "assert":
      if (args.length === 1 && args[0]?.kind === "expression") return true;
      if (args.length === 2 && isLabel(args[0]) && args[1]?.kind === "expression") return true;
      report(
        "invalid-attribute-arguments",
        {
          attribute: written,
          expected: "an expression, optionally after a label: @assert(label, {{ this > 0 }})",
        },
        attribute.span,
      );
      return false;
  }
}

function isLabel(argument: Attribute["args"][number] | undefined): boolean {
  return argument?.kind === "identifier" || (argument?.kind === "string" && !argument.raw);
}

/** The closest known attribute name, written with the same marker (`@descripton` → `@description`). */
function markedSuggestion(attribute: Attribute): string | undefined {
  const name = suggestName(attribute.name, Object.keys(shapes));
  return name === undefined ? undefined : `${attribute.block ? "@@" : "@"}${name}`;
}

/** The attribute named `name` in a checked list, if present. */
export function findAttribute(attributes: readonly Attribute[], name: string): Attribute | undefined {
  return attributes.find((attribute) => attribute.name === name);
}
