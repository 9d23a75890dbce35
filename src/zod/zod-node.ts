/**
 * What the converter reads of a Zod 4 schema, without importing Zod: every Zod 4 schema (classic or mini)
 * carries its definition in `_zod.def`, and metadata (`.describe()`, `.meta()`) lives in Zod's global
 * registry, which Zod keeps on `globalThis` so that every copy of Zod shares it. Reading the schema object
 * this way keeps `zod` out of this package's import graph: the user's own copy does all the work.
 */
import { UnsupportedSchemaError } from "../typed-schema/index.js";

export interface ZodDefinition {
  type: string;
  [key: string]: unknown;
}

export interface ZodNode {
  _zod: { def: ZodDefinition; innerType?: unknown; optin?: string };
  "~standard": { validate(value: unknown): StandardResult | Promise<StandardResult> };
}

export type StandardResult =
  | { value: unknown; issues?: undefined }
  | { issues: readonly { message: string; path?: readonly unknown[]; code?: string }[] };

interface Registry {
  get(schema: unknown): Record<string, unknown> | undefined;
}

/** The schema as a Zod 4 node, or a clear error for a Zod 3 schema or something that is no Zod schema. */
export function asZodNode(schema: unknown, path: string): ZodNode {
  if (typeof schema === "object" && schema !== null) {
    const internals = (schema as { _zod?: { def?: { type?: unknown } } })._zod;
    if (typeof internals?.def?.type === "string") return schema as ZodNode;
    if ("_def" in schema) {
      throw new UnsupportedSchemaError(
        "a Zod 3 schema",
        path,
        'sapling-llm/zod reads Zod 4 schemas. Upgrade to zod@4 (`import { z } from "zod"`), or with ' +
          'zod@3.25 import the v4 API: `import { z } from "zod/v4"`.',
      );
    }
  }
  throw new TypeError(`Expected a Zod 4 schema at ${path}, but got ${describeValue(schema)}.`);
}

/** `.describe()` / `.meta({ description })`, when the schema has one. */
export function descriptionOf(node: ZodNode): string | undefined {
  const description = metadataOf(node)?.description;
  return typeof description === "string" ? description : undefined;
}

/** `.meta({ id })` or `.meta({ title })`: the name a user gave the schema. */
export function declaredNameOf(node: ZodNode): string | undefined {
  const metadata = metadataOf(node);
  const name = metadata?.id ?? metadata?.title;
  return typeof name === "string" && name !== "" ? name : undefined;
}

function metadataOf(node: ZodNode): Record<string, unknown> | undefined {
  const registry = (globalThis as { __zod_globalRegistry?: Registry }).__zod_globalRegistry;
  return registry?.get(node);
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (typeof value !== "object") return typeof value;
  return `an object with keys ${Object.keys(value).slice(0, 5).join(", ") || "(none)"}`;
}
