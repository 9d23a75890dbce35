/**
 * The Sapling IR: a plain, JSON-serializable, versioned model of a BAML project.
 *
 * Produced only from a checked AST (`language/`); read by everything after the front end (sap, prompt,
 * runtime, codegen). It carries no AST nodes and no functions, so it can be embedded in generated code as
 * data and loaded with `loadIr`. Names are the declared names; aliases and descriptions travel as data.
 */

/** Bumped on any change that an older reader would misread. `loadIr` rejects other versions. */
export const IR_VERSION = 1;

export interface Ir {
  version: typeof IR_VERSION;
  classes: Class[];
  enums: Enum[];
  aliases: TypeAlias[];
  functions: LlmFunction[];
  clients: Client[];
  retryPolicies: RetryPolicy[];
  templateStrings: TemplateString[];
  generators: Generator[];
  tests: Test[];
}

/** Where a declaration came from, for error messages after the front end (template errors, tests). */
export interface SourceLocation {
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units. */
  column: number;
}

// ---------------------------------------------------------------------------------------------------------
// Types

export type PrimitiveName = "string" | "int" | "float" | "bool" | "null";
export type MediaName = "image" | "audio" | "pdf" | "video";

/**
 * A type expression: a closed union. `optional` is `T?` (= `T | null`); `alias` refers to a `type X = …`
 * declaration (possibly recursive through lists and maps).
 */
export type Type =
  | PrimitiveType
  | LiteralType
  | EnumRefType
  | ClassRefType
  | ListType
  | MapType
  | UnionType
  | OptionalType
  | AliasRefType
  | MediaType;

export interface PrimitiveType {
  kind: "primitive";
  name: PrimitiveName;
  attrs?: TypeAttributes;
}
export interface LiteralType {
  kind: "literal";
  value: string | number | boolean;
  attrs?: TypeAttributes;
}
export interface EnumRefType {
  kind: "enum";
  name: string;
  attrs?: TypeAttributes;
}
export interface ClassRefType {
  kind: "class";
  name: string;
  attrs?: TypeAttributes;
}
export interface ListType {
  kind: "list";
  item: Type;
  attrs?: TypeAttributes;
}
export interface MapType {
  kind: "map";
  key: Type;
  value: Type;
  attrs?: TypeAttributes;
}
export interface UnionType {
  kind: "union";
  /** Flattened (no nested unions), in declaration order; never contains `optional`. */
  options: Type[];
  attrs?: TypeAttributes;
}
export interface OptionalType {
  kind: "optional";
  inner: Type;
  attrs?: TypeAttributes;
}
export interface AliasRefType {
  kind: "alias";
  name: string;
  attrs?: TypeAttributes;
}
export interface MediaType {
  kind: "media";
  name: MediaName;
  attrs?: TypeAttributes;
}

/**
 * Attributes attached to a type expression. Field-level `@check`/`@assert`/`@stream.*` are lowered onto
 * the field's type, so consumers look in one place.
 */
export interface TypeAttributes {
  constraints?: Constraint[];
  /** `@stream.done`: appears in partials only when complete. */
  streamDone?: boolean;
  /** `@stream.not_null`: the enclosing object is withheld until this has a value. */
  streamNotNull?: boolean;
  /** `@stream.with_state`: partial value wrapped as `{ value, state }`. */
  streamWithState?: boolean;
}

/** `@check(label, {{ expr }})` records; `@assert(label?, {{ expr }})` rejects the value when false. */
export interface Constraint {
  level: "check" | "assert";
  /** Mandatory for checks, optional for asserts. */
  label?: string;
  /** The Jinja expression inside `{{ … }}`, trimmed, with `this` bound to the value. */
  expression: string;
}

// ---------------------------------------------------------------------------------------------------------
// Declarations

export interface Class {
  name: string;
  /** `@@alias`: the name the model sees. */
  alias?: string;
  /** `@@description`. */
  description?: string;
  fields: Field[];
  /** `@@dynamic`: may be extended at call time by a TypeBuilder. */
  dynamic: boolean;
  /** `@@check` / `@@assert`, evaluated after the fields. */
  constraints: Constraint[];
  /** `@@stream.done`. */
  streamDone?: boolean;
  /** `///` doc comment, for generated JSDoc. */
  docs?: string;
  source?: SourceLocation;
}

export interface Field {
  name: string;
  type: Type;
  /** `@alias`: the key the model sees and the parser matches (the declared name is then not accepted). */
  alias?: string;
  description?: string;
  /** `@skip`: left out of the prompt and the parse (the field must be optional). */
  skip?: boolean;
  docs?: string;
}

export interface Enum {
  name: string;
  alias?: string;
  description?: string;
  values: EnumValue[];
  dynamic: boolean;
  constraints: Constraint[];
  docs?: string;
  source?: SourceLocation;
}

export interface EnumValue {
  name: string;
  alias?: string;
  description?: string;
  skip?: boolean;
  docs?: string;
}

export interface TypeAlias {
  name: string;
  type: Type;
  docs?: string;
  source?: SourceLocation;
}

export interface Parameter {
  name: string;
  type: Type;
}

export interface LlmFunction {
  name: string;
  params: Parameter[];
  returnType: Type;
  /** A client name, or the `"provider/model"` shorthand. */
  client: string;
  /** The raw prompt template, exactly as written between the raw-string delimiters (not yet dedented). */
  prompt: string;
  /** Where the prompt text starts, so template errors can point into the `.baml` file. */
  promptSource?: SourceLocation;
  docs?: string;
  source?: SourceLocation;
}

/** A configuration value from a `client`, `generator` or `test` block. */
export type ConfigValue =
  | { kind: "string"; value: string }
  | { kind: "number"; value: number }
  | { kind: "bool"; value: boolean }
  | { kind: "null" }
  | { kind: "env"; name: string }
  | { kind: "array"; items: ConfigValue[] }
  | { kind: "map"; entries: Record<string, ConfigValue> };

export interface Client {
  name: string;
  /** e.g. `openai`, `openai-generic`, `anthropic`, `google-ai`, `fallback`, `round-robin`. */
  provider: string;
  retryPolicy?: string;
  /** `options { … }` as written; `env.NAME` stays a reference, resolved at call time. */
  options: Record<string, ConfigValue>;
  source?: SourceLocation;
}

export type RetryStrategy =
  | { type: "constant_delay"; delayMs: number }
  | { type: "exponential_backoff"; delayMs: number; multiplier: number; maxDelayMs: number };

export interface RetryPolicy {
  name: string;
  /** Additional attempts after the first. */
  maxRetries: number;
  strategy: RetryStrategy;
  source?: SourceLocation;
}

export interface TemplateString {
  name: string;
  params: Parameter[];
  body: string;
  source?: SourceLocation;
}

export interface Generator {
  name: string;
  outputType: string;
  outputDir: string;
  version?: string;
  moduleFormat?: "esm" | "cjs";
  /** Sapling's addition: how relative imports between generated files end (`"ts"` for Deno). */
  importExtension?: "js" | "ts";
  defaultClientMode?: "async" | "sync";
  onGenerate?: string;
  /** Every entry as written, including the ones above. */
  options: Record<string, ConfigValue>;
  source?: SourceLocation;
}

/** `type_builder { … }` inside a test: new declarations and extensions of `@@dynamic` ones. */
export interface TestTypeBuilder {
  classes: Class[];
  enums: Enum[];
  aliases: TypeAlias[];
  /** `dynamic class X { … }`: fields added to the existing dynamic class X. */
  dynamicClasses: Class[];
  /** `dynamic enum E { … }`: values added to the existing dynamic enum E. */
  dynamicEnums: Enum[];
}

export interface Test {
  name: string;
  functions: string[];
  /** Argument values as written; media args are maps like `{ file "x.png" }` / `{ url "…" }`. */
  args: Record<string, ConfigValue>;
  constraints: Constraint[];
  typeBuilder?: TestTypeBuilder;
  source?: SourceLocation;
}
