import { OutputFormatError, type SchemaType, unionArms } from "../../output-schema/index.js";
import type { OutputSchema, SchemaClass, SchemaEnum } from "./collect-output-schema.js";
import type { OutputFormatOptions } from "./output-format-options.js";

/**
 * Renders an output schema to BAML's `ctx.output_format` text, byte for byte (BAML 0.226.2,
 * `jinja-runtime/src/output_format/types.rs`), quirks included: inline enums in single quotes, a trailing
 * comma on every field, short inline enum lists without parentheses (`'A' or 'B'[]`), hoisted classes
 * referenced by declared name (not `@@alias`). Returns `""` where BAML renders nothing.
 */
export function renderOutputSchema(schema: OutputSchema, options: OutputFormatOptions = {}): string {
  const renderer = new SchemaRenderer(schema, options);
  return renderer.render();
}

/** An enum with more values than this is hoisted above the prefix. */
const INLINE_ENUM_MAX_VALUES = 6;
/** An inline enum list item longer than this (UTF-8 bytes) uses the block list form. */
const INLINE_LIST_ITEM_MAX_BYTES = 15;
const utf8 = new TextEncoder();

class SchemaRenderer {
  private readonly orSplitter: string;
  private readonly enumValuePrefix: string;
  /** `hoisted_class_prefix` when set and non-empty. */
  private readonly classPrefix: string | undefined;
  private readonly hoistedEnums = new Set<string>();
  private readonly hoistedClasses: Set<string>;

  constructor(
    private readonly schema: OutputSchema,
    private readonly options: OutputFormatOptions,
  ) {
    this.orSplitter = options.orSplitter ?? " or ";
    this.enumValuePrefix = options.enumValuePrefix === undefined ? "- " : (options.enumValuePrefix ?? "");
    this.classPrefix = options.hoistedClassPrefix ? options.hoistedClassPrefix : undefined;
    for (const item of schema.enums.values()) {
      const hoist =
        item.values.length > INLINE_ENUM_MAX_VALUES ||
        item.values.some((value) => value.description !== undefined) ||
        options.alwaysHoistEnums === true;
      if (hoist) this.hoistedEnums.add(item.name);
    }
    this.hoistedClasses = new Set(schema.recursiveClasses);
    const hoist = options.hoistClasses;
    if (hoist === true) {
      for (const name of schema.classes.keys()) this.hoistedClasses.add(name);
    } else if (Array.isArray(hoist)) {
      const missing = hoist.filter((name) => !schema.classes.has(name));
      if (missing.length > 0) {
        const names = missing.map((name) => `"${name}"`).join(", ");
        const [noun, verb] = missing.length === 1 ? ["class", "it does"] : ["classes", "they do"];
        throw new OutputFormatError(
          "unknown_hoisted_class",
          `Cannot hoist ${noun} ${names} because ${verb} not exist (hoist only classes the output type uses).`,
        );
      }
      for (const name of hoist) this.hoistedClasses.add(name);
    }
  }

  render(): string {
    const target = this.schema.target;
    const prefix = this.prefix();
    let message: string | undefined;
    if (target.kind === "primitive" && target.name === "string" && prefix === undefined) message = undefined;
    else if (target.kind === "enum") message = this.enumBlock(this.enumOf(target.name));
    else message = this.renderType(target);
    if (target.kind === "class" && this.hoistedClasses.has(target.name)) message = target.name;
    const targetIsHoistedEnum = target.kind === "enum" && this.hoistedEnums.has(target.name);
    if (targetIsHoistedEnum) message = undefined;

    const classDefinitions = [...this.hoistedClasses].map((name) => {
      const body = this.renderType({ kind: "class", name });
      return this.classPrefix ? `${this.classPrefix} ${name} ${body}` : `${name} ${body}`;
    });
    const aliasDefinitions = [...this.schema.recursiveAliases].map(([name, definition]) => {
      const text = `${name} = ${this.renderType(definition)}`;
      return this.classPrefix ? `${this.classPrefix} ${text}` : text;
    });
    const enumDefinitions = [...this.hoistedEnums].map((name) => {
      const block = this.enumBlock(this.enumOf(name));
      const isTarget = targetIsHoistedEnum && target.kind === "enum" && target.name === name;
      return isTarget && prefix !== undefined ? `${prefix}${block}` : block;
    });

    let output = "";
    if (enumDefinitions.length > 0) {
      output += enumDefinitions.join("\n\n");
      if (!targetIsHoistedEnum) output += "\n\n";
    }
    if (classDefinitions.length > 0) output += `${classDefinitions.join("\n\n")}\n\n`;
    if (aliasDefinitions.length > 0) output += `${aliasDefinitions.join("\n")}\n\n`;
    if (prefix !== undefined && !targetIsHoistedEnum) output += prefix;
    if (message !== undefined) output += message;
    return output.replace(/\n+$/, "");
  }

  private prefix(): string | undefined {
    if (this.options.prefix !== undefined) return this.options.prefix ?? undefined;
    const target = this.schema.target;
    const typePrefix = this.classPrefix ?? "schema";
    switch (target.kind) {
      case "primitive":
      case "media":
        if (target.kind === "primitive" && target.name === "string") return undefined;
        return `Answer as ${/^[aeiou]/i.test(target.name) ? "an" : "a"} `;
      case "literal":
        return "Answer using this specific value:\n";
      case "enum":
        return "Answer with any of the categories:\n";
      case "class":
        return `Answer in JSON using this ${typePrefix}:${this.hoistedClasses.has(target.name) ? " " : "\n"}`;
      case "recursive-alias":
        return `Answer in JSON using this ${typePrefix}: `;
      case "list":
        return "Answer with a JSON Array using this schema:\n";
      case "map":
        return "Answer in JSON using this schema:\n";
      case "union":
        if (target.options.length === 0) return `Answer ONLY with ${this.options.renderNullAs ?? "null"}:\n`;
        if (target.options.length === 1) return "Answer in JSON using this schema:\n";
        return "Answer in JSON using any of these schemas:\n";
    }
  }

  /** A nested type: a hoisted class by name, anything else in full. */
  private renderReference(type: SchemaType): string {
    if (type.kind === "class" && this.hoistedClasses.has(type.name)) return type.name;
    return this.renderType(type);
  }

  private renderType(type: SchemaType): string {
    switch (type.kind) {
      case "primitive":
        return type.name === "null" ? (this.options.renderNullAs ?? "null") : type.name;
      case "media":
        throw new OutputFormatError(
          "unsupported_output_type",
          `type '${type.name}' is not supported in outputs: media types can be arguments of a function, not part of its return type.`,
        );
      case "literal":
        return typeof type.value === "string" ? `"${type.value}"` : String(type.value);
      case "enum": {
        const item = this.enumOf(type.name);
        if (this.hoistedEnums.has(type.name)) return item.renderedName;
        return item.values.map((value) => `'${value.renderedName}'`).join(this.orSplitter);
      }
      case "class":
        return this.classBody(this.classOf(type.name));
      case "recursive-alias":
        return type.name;
      case "list":
        return this.renderList(type.item);
      case "union":
        return unionArms(type)
          .map((arm) => this.renderReference(arm))
          .join(this.orSplitter);
      case "map": {
        const key = this.renderReference(type.key);
        const value = this.renderReference(type.value);
        return this.options.mapStyle === "object" ? `{${key}: ${value}}` : `map<${key}, ${value}>`;
      }
    }
  }

  private renderList(item: SchemaType): string {
    const isHoisted =
      (item.kind === "class" && this.hoistedClasses.has(item.name)) ||
      (item.kind === "recursive-alias" && this.schema.recursiveAliases.has(item.name));
    const text = this.renderReference(item);
    if (!isHoisted && this.needsBlockList(item, text)) return `[\n  ${text.replaceAll("\n", "\n  ")}\n]`;
    return item.kind === "union" ? `(${text})[]` : `${text}[]`;
  }

  private needsBlockList(item: SchemaType, text: string): boolean {
    switch (item.kind) {
      case "primitive":
        return false;
      case "enum":
        return utf8.encode(text).length > INLINE_LIST_ITEM_MAX_BYTES;
      case "union":
        return unionArms(item).every((arm) => arm.kind !== "primitive" && arm.kind !== "media");
      default:
        return true;
    }
  }

  private classBody(item: SchemaClass): string {
    let text = "{\n";
    const description = item.description?.trim();
    if (description) {
      for (const line of description.split("\n")) text += `  // ${line.replace(/\r$/, "")}\n`;
      text += "\n";
    }
    for (const field of item.fields) {
      if (field.description !== undefined) text += `  // ${field.description.replaceAll("\n", "\n  // ")}\n`;
      const name = this.options.quoteClassFields ? `"${field.renderedName}"` : field.renderedName;
      text += `  ${name}: ${this.renderReference(field.type).replaceAll("\n", "\n  ")},\n`;
    }
    return `${text}}`;
  }

  private enumBlock(item: SchemaEnum): string {
    let text = `${item.renderedName}\n----`;
    for (const value of item.values) {
      const description =
        value.description === undefined ? "" : `: ${value.description.replaceAll("\n", "\n  ")}`;
      text += `\n${this.enumValuePrefix}${value.renderedName}${description}`;
    }
    return text;
  }

  private enumOf(name: string): SchemaEnum {
    const found = this.schema.enums.get(name);
    if (!found) throw new OutputFormatError("unsupported_output_type", `Enum ${name} not found.`);
    return found;
  }

  private classOf(name: string): SchemaClass {
    const found = this.schema.classes.get(name);
    if (!found) throw new OutputFormatError("unsupported_output_type", `Class ${name} not found.`);
    return found;
  }
}
