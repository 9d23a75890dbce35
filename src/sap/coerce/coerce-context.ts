import type { IrIndex, Type } from "../../ir/index.js";
import type { JsonishNode } from "../lenient/jsonish-node.js";
import type { ActiveClasses } from "./active-classes.js";
import type { CoerceResult } from "./coerce-result.js";

/** Evaluates a `@check`/`@assert` expression with `this` bound to `value` (injected: sap has no Jinja). */
export type ConstraintEvaluator = (expression: string, value: unknown) => boolean;

/**
 * How the whole answer read as plain text may serve a type: `primary` (scalars: an enum named in prose),
 * `fallback` (lists of scalars: split the text only when nothing in it parses as JSON), `never` (classes,
 * maps).
 */
export type PlainTextUse = "primary" | "fallback" | "never";

const PLAIN_TEXT_ORDER: Record<PlainTextUse, number> = { never: 0, fallback: 1, primary: 2 };

/** The more permissive of two uses (for unions). */
export function widerPlainTextUse(left: PlainTextUse, right: PlainTextUse): PlainTextUse {
  return PLAIN_TEXT_ORDER[left] >= PLAIN_TEXT_ORDER[right] ? left : right;
}

/** What a value that was never written becomes, if the type allows it. */
export interface MissingDefault {
  value: unknown;
  /** `optional`: a nullable type defaulting to null; `empty`: a required list or map defaulting to empty. */
  reason: "optional" | "empty";
}

/**
 * What every kind coercer receives. Kind coercers reach other kinds only through these functions (never
 * by importing each other), which keeps the table free of import cycles.
 */
export interface CoerceContext {
  readonly index: IrIndex;
  /** Prefix mode: missing required fields are pending (null), not errors. */
  readonly partial: boolean;
  readonly constraintEvaluator: ConstraintEvaluator | undefined;
  /** Coerce a node to a type (the shared entry point: table dispatch, constraints, incompleteness). */
  coerce(type: Type, node: JsonishNode, path: string): CoerceResult;
  /** The default for a value that was never written, or undefined when it is required. */
  missing(type: Type): MissingDefault | undefined;
  /** Whether values of the type are single tokens, so a delimited string may be split into a list of them. */
  isScalar(type: Type): boolean;
  /** Whether the answer as plain text (not parsed as JSON) can be a value of the type. */
  plainText(type: Type): PlainTextUse;
  /** Printed type for messages: `int`, `enum Decision (STRONG_HIRE | HIRE)`. */
  describe(type: Type): string;
  /** Whether the node has the type's natural JSON shape (unions try those options first). */
  fits(type: Type, node: JsonishNode): boolean;
  /** Current nesting depth (guarded against runaway recursion). */
  depth: number;
  /** Classes being coerced, with their nodes: the recursion guard for single-field classes that wrap themselves. */
  readonly active: ActiveClasses;
  /**
   * Told when a key written again replaces the value an earlier key gave the object or map at `path` (the
   * last key wins). Final mode leaves it unset; a stream that reads a finished node with the final-mode
   * coercers hands such a node back to its own coercers, which announce the replacement (`restarts`).
   */
  onKeyAgain?: ((path: string) => void) | undefined;
}

/** One type kind's coercer: the Zod-style table entry. Shared code never branches on a type kind. */
export interface KindCoercer<T extends Type> {
  coerce(type: T, node: JsonishNode, path: string, context: CoerceContext): CoerceResult;
  /** The kind hands the same node to an inner type (optional, union, alias); the inner one flags it. */
  delegates?: boolean;
  missing?(type: T, context: CoerceContext): MissingDefault | undefined;
  isScalar?(type: T, context: CoerceContext): boolean;
  /** Defaults to `primary`. */
  plainText?(type: T, context: CoerceContext): PlainTextUse;
  describe?(type: T, context: CoerceContext): string;
  /** The node's JSON kind is this type's natural one (a repair-free reading is possible). Default false. */
  fits?(type: T, node: JsonishNode, context: CoerceContext): boolean;
}

export type CoercerTable = { [K in Type["kind"]]: KindCoercer<Extract<Type, { kind: K }>> };
