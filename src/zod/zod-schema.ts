import { type Ir, IrIndex, type Type } from "../ir/index.js";
import { TypeCollector, type TypedSchema, type ValidationOutcome } from "../typed-schema/index.js";
import { convertZod } from "./convert-zod.js";
import { asZodNode, type StandardResult } from "./zod-node.js";

const compiled = new WeakMap<object, TypedSchema>();

/** The root's name when the schema declares none with `.meta({ id })`. */
const DEFAULT_ROOT_NAME = "Output";

/**
 * The `TypedSchema` of a Zod schema: converted once per schema object and kept (a schema is immutable in
 * Zod 4, so the conversion cannot go stale). Validation is the schema's own `~standard.validate`, so
 * refinements, defaults and transforms run exactly as `schema.parse` would run them.
 */
export function zodTypedSchema(schema: unknown): TypedSchema {
  const node = asZodNode(schema, "$");
  const cached = compiled.get(node);
  if (cached) return cached;
  const { collector, root } = convertZod(node, DEFAULT_ROOT_NAME);
  const ir = collector.toIr();
  const typed: TypedSchema = {
    ir,
    index: new IrIndex(ir),
    type: root.type,
    adaptFinal: root.final,
    adaptPartial: root.partial,
    validate: (value) => {
      const result = node["~standard"].validate(value);
      return result instanceof Promise ? result.then(toOutcome) : toOutcome(result);
    },
  };
  compiled.set(node, typed);
  return typed;
}

function toOutcome(result: StandardResult): ValidationOutcome {
  if (result.issues === undefined) return { value: result.value };
  return {
    issues: result.issues.map((issue) => ({
      path: (issue.path ?? []).map((segment) =>
        typeof segment === "object" && segment !== null && "key" in segment
          ? (segment as { key: PropertyKey }).key
          : (segment as PropertyKey),
      ),
      message: issue.message,
      code: issue.code,
    })),
  };
}

/** Options of `toBamlType`. */
export interface ToBamlTypeOptions {
  /** The name of the root class or enum when the schema has no `.meta({ id })`. Default `Output`. */
  name?: string;
}

/**
 * Sapling's type for a Zod schema: the target `type` and an `ir` holding the classes (objects), enums and
 * aliases (recursion outside objects) it refers to — ready for `parseValue`, `renderOutputFormat`,
 * `toJsonSchema` from "sapling-llm". Throws `UnsupportedSchemaError` naming any Zod feature Sapling cannot
 * read toward, with its path.
 */
export function toBamlType(schema: unknown, options: ToBamlTypeOptions = {}): { ir: Ir; type: Type } {
  const { collector, root } = convertZod(schema, options.name ?? DEFAULT_ROOT_NAME, new TypeCollector());
  return { ir: collector.toIr(), type: root.type };
}
