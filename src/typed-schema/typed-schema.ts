import type { Ir, IrIndex, Type } from "../ir/index.js";
import type { Flag } from "../sap/index.js";
import type { SchemaIssue } from "./schema-parse-error.js";

/** Turns a value as the parser gives it into the value the schema's validation expects. */
export type ValueAdapter = (value: unknown) => unknown;

/** What a schema's own validation says about a parsed value: the value to return, or what is wrong. */
export type ValidationOutcome = { value: unknown } | { issues: readonly SchemaIssue[] };

/**
 * A Zod or JSON Schema converted for the parser: Sapling's type for it (in an IR of its own) and the steps
 * that run after parsing. The Zod and JSON Schema entry points build one per schema; the four functions
 * (`parse`, `parsePartial`, `createStreamParser`, `outputFormat`) and the AI SDK output read it.
 */
export interface TypedSchema {
  readonly ir: Ir;
  /** The same IR indexed once, for the parser. */
  readonly index: IrIndex;
  readonly type: Type;
  /**
   * Final values: a field the model left out is `null` to the parser, but `undefined` to a Zod
   * `.optional()` / `.default()` that does not accept null; enum names the model wrote become the enum's
   * values. Absent when the parser's value is already what validation expects. `flags` are the parser's
   * repairs and `text` the answer, for an adapter that must tell a field left out from one written and
   * rejected, or a whole answer read as text from the JSON it is.
   */
  readonly adaptFinal?: ((value: unknown, flags: readonly Flag[], text: string) => unknown) | undefined;
  /**
   * The schema's validation is the whole truth about which values it allows (a JSON Schema with its
   * validator): when the parser changed the answer to fit its type (dropped a key the type does not
   * declare, case-folded a key, read `1` as `"1"`) but the JSON the model wrote is itself valid, that
   * JSON is the value, with only the flags of where it was read from and its syntax repairs.
   */
  readonly acceptsWritten?: boolean | undefined;
  /** Partial values: only the enum mapping (a missing field stays `null`: not written yet). */
  readonly adaptPartial?: ValueAdapter | undefined;
  /**
   * The schema's own rules (Zod refinements, defaults and transforms; JSON Schema bounds) on the adapted
   * value. A promise only for a Zod schema with async refinements.
   */
  validate(value: unknown): ValidationOutcome | Promise<ValidationOutcome>;
}
