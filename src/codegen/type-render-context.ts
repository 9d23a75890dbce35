import { type IrIndex, labelledChecks, type Type } from "../ir/index.js";
import { CodegenError } from "./codegen-error.js";

/**
 * Where a type expression is being printed. The same IR type prints differently in `types.ts` (bare
 * names), in `partial_types.ts` (inside the `partial_types` namespace) and in the clients (qualified), and
 * inside a type alias body (where `Record<…>` would make a recursive alias circular).
 */
export interface TypeRenderContext {
  index: IrIndex;
  /** Prefix of names declared in `types.ts`: `""` there, `"types."` elsewhere. */
  typesPrefix: string;
  /** Prefix of names in the `partial_types` namespace: `""` inside it, `"partial_types."` elsewhere. */
  partialPrefix: string;
  /** Inside `export type X = …`: maps print as index signatures (TypeScript rejects recursive `Record`). */
  inAliasBody: boolean;
  /** Names from outside the module that the printed text used (`Image`, `StreamState`), for imports. */
  used: Set<string>;
}

/**
 * A printed type as its union members (`["string", "null"]`), so callers can add `| null` without
 * duplicating it and know when `[]` needs parentheses.
 */
export type Members = string[];

/** A name declared in `types.ts`, qualified for the module being printed; records the use. */
export function typesRef(name: string, context: TypeRenderContext): string {
  if (context.typesPrefix !== "") context.used.add("types");
  return `${context.typesPrefix}${name}`;
}

/** A name in the `partial_types` namespace, qualified for the module being printed; records the use. */
export function partialRef(name: string, context: TypeRenderContext): string {
  if (context.partialPrefix !== "") context.used.add("partial_types");
  return `${context.partialPrefix}${name}`;
}

/** The runtime's media classes a printed type used, sorted, for an `import type { … }` line. */
export function usedMedia(context: TypeRenderContext): string[] {
  return ["Audio", "Image", "Pdf", "Video"].filter((name) => context.used.has(name));
}

export function joinMembers(members: Members): string {
  return members.join(" | ");
}

/** `A | B` as an operand of `[]`: `(A | B)[]`. */
export function asOperand(members: Members): string {
  return members.length > 1 ? `(${joinMembers(members)})` : joinMembers(members);
}

/** Union of member lists, without repeats (`int | float` → `number`), in first-seen order. */
export function unionMembers(lists: Members[]): Members {
  const seen = new Set<string>();
  for (const list of lists) for (const member of list) seen.add(member);
  return [...seen];
}

export function mediaClassName(name: "image" | "audio" | "pdf" | "video"): string {
  return `${name.charAt(0).toUpperCase()}${name.slice(1)}`;
}

export function literalText(value: string | number | boolean): string {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

/**
 * `Checked<T, "a" | "b">` when the type carries `@check`s, its own or its class's `@@check`s (asserts
 * reject instead of recording), the
 * `{ value, checks }` shape the runtime wraps checked values in.
 */
export function wrapChecked(members: Members, type: Type, context: TypeRenderContext): Members {
  const labels = [
    ...new Set(labelledChecks(type, context.index).map((constraint) => constraint.label as string)),
  ].sort();
  if (labels.length === 0) return members;
  const names = labels.map((label) => JSON.stringify(label)).join(" | ");
  // The runtime leaves a null value unwrapped (there is nothing to check), so `T? @check` is
  // `Checked<T> | null`.
  const present = members.filter((member) => member !== "null");
  const checked = `${typesRef("Checked", context)}<${joinMembers(present)}, ${names}>`;
  return present.length < members.length ? [checked, "null"] : [checked];
}

/**
 * A map as TypeScript: string keys → `Record<string, V>`; enum or literal keys → `Partial<Record<K, V>>`
 * (not every key need be present). Inside alias bodies, the equivalent index-signature and mapped forms.
 */
export function mapText(keyMembers: Members, valueMembers: Members, context: TypeRenderContext): string {
  const value = joinMembers(valueMembers);
  const openKeys = keyMembers.includes("string");
  if (context.inAliasBody) {
    return openKeys ? `{ [key: string]: ${value} }` : `{ [key in ${joinMembers(keyMembers)}]?: ${value} }`;
  }
  return openKeys ? `Record<string, ${value}>` : `Partial<Record<${joinMembers(keyMembers)}, ${value}>>`;
}

export function unknownReference(kind: string, name: string): CodegenError {
  return new CodegenError(
    "CODEGEN_UNKNOWN_REFERENCE",
    `The IR refers to ${kind} "${name}", which it does not declare. Recompile the project from .baml sources.`,
  );
}
