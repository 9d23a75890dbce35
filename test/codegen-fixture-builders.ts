/**
 * Small constructors for the IR of codegen fixture projects (test/fixtures/codegen/<name>/project.ts), so
 * a fixture reads close to the `.baml` it stands for. Defaults are what the compiler produces for a bare
 * declaration.
 */
import {
  type Class,
  type Constraint,
  type Enum,
  type Field,
  type Generator,
  IR_VERSION,
  type Ir,
  type LlmFunction,
  type Type,
  type TypeAlias,
  type TypeAttributes,
  t,
} from "../src/ir/index.js";

export { t };

export function klass(name: string, fields: Field[], extra: Partial<Class> = {}): Class {
  return { name, fields, dynamic: false, constraints: [], ...extra };
}

export function field(name: string, type: Type, extra: Partial<Field> = {}): Field {
  return { name, type, ...extra };
}

export function enumeration(name: string, values: string[], extra: Partial<Enum> = {}): Enum {
  return {
    name,
    values: values.map((value) => ({ name: value })),
    dynamic: false,
    constraints: [],
    ...extra,
  };
}

export function alias(name: string, type: Type, extra: Partial<TypeAlias> = {}): TypeAlias {
  return { name, type, ...extra };
}

export function llmFunction(
  name: string,
  params: Record<string, Type>,
  returnType: Type,
  extra: Partial<LlmFunction> = {},
): LlmFunction {
  return {
    name,
    params: Object.entries(params).map(([paramName, type]) => ({ name: paramName, type })),
    returnType,
    client: "Mock",
    prompt: "\n    {{ ctx.output_format }}\n  ",
    ...extra,
  };
}

export function check(label: string, expression: string): Constraint {
  return { level: "check", label, expression };
}

export function assert(expression: string, label?: string): Constraint {
  return { level: "assert", expression, ...(label === undefined ? {} : { label }) };
}

/** `type` with attributes added (`@stream.done`, `@check`, …). */
export function attrs(type: Type, attributes: TypeAttributes): Type {
  return t.withAttrs(type, attributes);
}

export function typescriptGenerator(extra: Partial<Generator> = {}): Generator {
  return { name: "target", outputType: "typescript", outputDir: "../", options: {}, ...extra };
}

export function project(parts: Partial<Ir>): Ir {
  return {
    version: IR_VERSION,
    classes: [],
    enums: [],
    aliases: [],
    functions: [],
    clients: [
      {
        name: "Mock",
        provider: "openai-generic",
        options: {
          base_url: { kind: "string", value: "http://127.0.0.1:4010/v1" },
          model: { kind: "string", value: "mock" },
        },
      },
    ],
    retryPolicies: [],
    templateStrings: [],
    generators: [typescriptGenerator()],
    tests: [],
    ...parts,
  };
}
