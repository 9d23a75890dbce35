import { jsonSchemaTypedSchema } from "../json-schema/index.js";
import type { SchemaIssue, TypedSchema, ValidationOutcome } from "../typed-schema/index.js";
import { zodTypedSchema } from "../zod/index.js";

/** The mark the AI SDK's `jsonSchema()` and `zodSchema()` wrappers carry (`@ai-sdk/provider-utils`). */
const AI_SDK_SCHEMA = Symbol.for("vercel.ai.schema");

/** The AI SDK's `Schema` wrapper: the JSON Schema (read through a getter) and an optional validator. */
interface AiSdkSchema {
  readonly jsonSchema: unknown;
  readonly validate?: ((value: unknown) => AiSdkValidation | PromiseLike<AiSdkValidation>) | undefined;
}

type AiSdkValidation = { success: true; value: unknown } | { success: false; error: Error };

/** A Standard Schema (Valibot, ArkType, …), with the Standard JSON Schema converter when it has one. */
interface StandardSchema {
  readonly "~standard": {
    readonly vendor: string;
    validate(value: unknown): StandardResult | PromiseLike<StandardResult>;
    readonly jsonSchema?: { input(options: { target: string }): Record<string, unknown> } | undefined;
  };
}

type StandardResult =
  | { value: unknown; issues?: undefined }
  | { issues: ReadonlyArray<{ message: string; path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> }> };

/**
 * The typed schema behind any schema the AI SDK accepts for an output:
 * - a Zod 4 schema (anything with `_zod`; a Zod 3 schema is refused with a clear error);
 * - the SDK's `jsonSchema(…)` / `zodSchema(…)` wrappers: the JSON Schema inside, then the wrapper's own
 *   `validate` after Sapling's;
 * - a Standard Schema (Valibot through `@valibot/to-json-schema`'s `toStandardJsonSchema`, ArkType, …)
 *   that can convert itself to JSON Schema (Standard JSON Schema): that JSON Schema, then its `validate`;
 * - a plain JSON Schema object.
 */
export function typedSchemaOf(schema: object): TypedSchema {
  if (isAiSdkSchema(schema)) return fromAiSdkSchema(schema);
  if ("_zod" in schema || "_def" in schema) return zodTypedSchema(schema);
  if ("~standard" in schema) return fromStandardSchema(schema as StandardSchema);
  return jsonSchemaTypedSchema(schema);
}

function isAiSdkSchema(schema: object): schema is AiSdkSchema {
  return AI_SDK_SCHEMA in schema && "jsonSchema" in schema;
}

function fromAiSdkSchema(schema: AiSdkSchema): TypedSchema {
  const json = schema.jsonSchema;
  if (
    json === null ||
    typeof json !== "object" ||
    typeof (json as PromiseLike<unknown>).then === "function"
  ) {
    throw new TypeError(
      "saplingOutput: this AI SDK schema gives its JSON Schema only asynchronously (or not as an object). " +
        "Pass the JSON Schema object itself, or the Zod schema, to saplingOutput.",
    );
  }
  const validate = schema.validate;
  const typed = jsonSchemaTypedSchema(json as Record<string, unknown>);
  if (validate === undefined) return typed;
  return thenValidate(typed, async (value) => {
    const result = await validate(value);
    return result.success
      ? { value: result.value }
      : { issues: [{ path: [], message: result.error.message }] };
  });
}

function fromStandardSchema(schema: StandardSchema): TypedSchema {
  const standard = schema["~standard"];
  if (standard.jsonSchema === undefined) {
    throw new TypeError(
      `saplingOutput: this ${standard.vendor} schema cannot convert itself to JSON Schema, which Sapling ` +
        "needs to know the type. Wrap it with its library's Standard JSON Schema converter (for Valibot, " +
        "`toStandardJsonSchema(schema)` from `@valibot/to-json-schema`), or pass a JSON Schema object.",
    );
  }
  const typed = jsonSchemaTypedSchema(standard.jsonSchema.input({ target: "draft-07" }));
  return thenValidate(typed, async (value) => {
    const result = await standard.validate(value);
    if (result.issues === undefined) return { value: result.value };
    return {
      issues: result.issues.map(
        (issue): SchemaIssue => ({
          path: (issue.path ?? []).map((segment) => (typeof segment === "object" ? segment.key : segment)),
          message: issue.message,
        }),
      ),
    };
  });
}

/** `typed`, whose validation then runs `more` on the value it accepted (the schema library's own rules). */
function thenValidate(typed: TypedSchema, more: (value: unknown) => Promise<ValidationOutcome>): TypedSchema {
  return {
    ...typed,
    async validate(value) {
      const first = await typed.validate(value);
      return "issues" in first ? first : more(first.value);
    },
  };
}
