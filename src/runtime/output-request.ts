/**
 * What a request in an output plan's mode asks for beyond text (docs/decisions/0013): in `tools` mode each
 * tool's JSON Schema, in `native` mode the return type's. Built from the plan with the call path (this file
 * loads with run-call.ts), so a page that only parses does not ship the JSON Schema writer.
 */
import type { Type } from "../ir/index.js";
import type { OutputRequest } from "../llm/index.js";
import { type JsonSchema, toJsonSchema } from "../output-schema/index.js";
import { type OutputPlan, WRAPPER_FIELD } from "./output-plan.js";

const built = new WeakMap<OutputPlan, OutputRequest | undefined>();

/** The plan's request (none in `prompt` mode), built once per plan. */
export function outputRequest(plan: OutputPlan): OutputRequest | undefined {
  if (built.has(plan)) return built.get(plan);
  const request = buildRequest(plan);
  built.set(plan, request);
  return request;
}

/** A model call's `output` option for the plan: its request, if it has one. */
export function withOutput(plan: OutputPlan): { output?: OutputRequest } {
  const output = outputRequest(plan);
  return output === undefined ? {} : { output };
}

function buildRequest(plan: OutputPlan): OutputRequest | undefined {
  if (plan.mode === "prompt") return undefined;
  const { type: returnType, index } = plan.returns;
  const described = (type: Type): { description?: string } => {
    const description = type.kind === "class" ? index.getClass(type.name).description : undefined;
    return description === undefined ? {} : { description };
  };
  if (plan.mode === "tools") {
    const tools = [...plan.tools].map(([name, target]) => ({
      name,
      ...described(target.type),
      parameters: objectRoot(toJsonSchema(index.ir, target.type)),
    }));
    return { type: "tools", tools, choice: "required" };
  }
  const [name, target] = [...plan.tools][0]!;
  const schema = objectRoot(toJsonSchema(index.ir, returnType));
  return {
    type: "json-schema",
    name,
    ...described(index.resolveAlias(returnType)),
    schema: target.wrapped ? wrapSchema(schema) : schema,
  };
}

/**
 * A recursive class's schema is a `$ref` to its own definition; tool inputs and strict schemas need an
 * object at the root, so the definition is copied there (it stays in `$defs` for the inner references).
 */
function objectRoot(schema: JsonSchema): JsonSchema {
  const reference = typeof schema.$ref === "string" ? /^#\/\$defs\/(.+)$/.exec(schema.$ref)?.[1] : undefined;
  const definitions = schema.$defs as Record<string, JsonSchema> | undefined;
  const target = reference === undefined ? undefined : definitions?.[reference];
  if (target === undefined || target.type !== "object") return schema;
  const { $ref: _reference, ...rest } = schema;
  return { ...rest, ...target, $defs: definitions };
}

/** A schema whose root is not an object, as the one field of a wrapper object (`{"value": …}`). */
function wrapSchema(schema: JsonSchema): JsonSchema {
  const { $schema, $defs, ...inner } = schema;
  return {
    ...($schema === undefined ? {} : { $schema }),
    type: "object",
    properties: { [WRAPPER_FIELD]: inner },
    required: [WRAPPER_FIELD],
    additionalProperties: false,
    ...($defs === undefined ? {} : { $defs }),
  };
}
