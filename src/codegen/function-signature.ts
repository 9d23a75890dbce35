import type { IrIndex, LlmFunction } from "../ir/index.js";
import { renderFinalType } from "./render-final-type.js";
import { renderPartialType } from "./render-partial-type.js";
import { joinMembers, type TypeRenderContext } from "./type-render-context.js";

/** A printed piece of TypeScript and the outside names (`types`, `Image`, …) it refers to. */
export interface Printed {
  text: string;
  uses: Set<string>;
}

/** The TypeScript pieces of one BAML function, shared by the client, request and parser emitters. */
export interface FunctionSignature {
  name: string;
  docs: string | undefined;
  /** `resume: string, note?: string | null` (without the trailing options parameter). */
  parameters: Printed;
  /** The parameters' local names in order (`class_` for a parameter named `class`), to pass them on. */
  parameterLocals: string[];
  /** The parameters' names as declared in `.baml` (the keys of the named arguments). */
  parameterNames: string[];
  /** `{ resume, note: note ?? null }`: the named arguments the runtime takes. */
  argumentsObject: string;
  /** `{ resume: string; note?: string | null }`: the type of the named arguments (one row of a batch). */
  argumentsType: Printed;
  finalType: Printed;
  partialType: Printed;
}

/** Words a parameter cannot be named in TypeScript; such a parameter is printed as `name_`. */
const reservedWords = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally " +
    "for function if import in instanceof new null return super switch this throw true try typeof var void " +
    "while with implements interface let package private protected public static yield await arguments eval"
  ).split(" "),
);

/**
 * Prints a function's parameters, its argument object and its result types for a module outside
 * `types.ts` (names qualified as `types.X` / `partial_types.X`). A nullable parameter is optional (`x?:`)
 * when every parameter after it is nullable too; TypeScript allows no required parameter after an optional
 * one, so an earlier nullable parameter stays required and takes `null`.
 */
export function functionSignature(declaration: LlmFunction, index: IrIndex): FunctionSignature {
  const parameterContext = outsideContext(index);
  const types = declaration.params.map((parameter) => renderFinalType(parameter.type, parameterContext));
  const optionalFrom = trailingNullableStart(types);
  const parameters: string[] = [];
  const entries: string[] = [];
  const properties: string[] = [];
  const locals: string[] = [];
  declaration.params.forEach((parameter, position) => {
    const members = types[position] ?? [];
    const local = reservedWords.has(parameter.name) ? `${parameter.name}_` : parameter.name;
    const optional = position >= optionalFrom;
    locals.push(local);
    parameters.push(`${local}${optional ? "?" : ""}: ${joinMembers(members)}`);
    const value = optional ? `${local} ?? null` : local;
    entries.push(value === parameter.name ? parameter.name : `${parameter.name}: ${value}`);
    properties.push(`${parameter.name}${optional ? "?" : ""}: ${joinMembers(members)}`);
  });
  const finalContext = outsideContext(index);
  const finalType = joinMembers(renderFinalType(declaration.returnType, finalContext));
  const partialContext = outsideContext(index);
  // The top level is needed: a stream yields a partial only once the parser has a value to show.
  const partialType = joinMembers(
    renderPartialType(declaration.returnType, { needed: true, done: false }, partialContext),
  );
  return {
    name: declaration.name,
    docs: declaration.docs,
    parameters: { text: parameters.join(", "), uses: parameterContext.used },
    parameterLocals: locals,
    parameterNames: declaration.params.map((parameter) => parameter.name),
    argumentsObject: entries.length === 0 ? "{}" : `{ ${entries.join(", ")} }`,
    argumentsType: {
      text: properties.length === 0 ? "Record<string, never>" : `{ ${properties.join("; ")} }`,
      uses: parameterContext.used,
    },
    finalType: { text: finalType, uses: finalContext.used },
    partialType: { text: partialType, uses: partialContext.used },
  };
}

function outsideContext(index: IrIndex): TypeRenderContext {
  return {
    index,
    typesPrefix: "types.",
    partialPrefix: "partial_types.",
    inAliasBody: false,
    used: new Set(),
  };
}

function trailingNullableStart(types: string[][]): number {
  let start = types.length;
  while (start > 0 && (types[start - 1] ?? []).includes("null")) start--;
  return start;
}
