/**
 * The BAML syntax tree. Nodes carry offsets only (`span`), never lines or columns; everything after the
 * checker reads the IR instead. Concept names match the IR's and are told apart by namespace
 * (`ast.ClassDecl` vs `ir.Class`).
 */
import type { Span } from "../diagnostics/index.js";

export type { Span };

export interface Identifier {
  name: string;
  span: Span;
}

/** `@name(args)` or `@@name(args)`; dotted names (`stream.done`) are joined with a dot. */
export interface Attribute {
  name: string;
  /** `@@` (applies to the enclosing block) rather than `@`. */
  block: boolean;
  args: AttributeArgument[];
  /** Whether parentheses were written (so `@skip()` and `@skip` can be told apart by the formatter). */
  parenthesized: boolean;
  span: Span;
  nameSpan: Span;
}

export type AttributeArgument =
  | { kind: "string"; value: string; raw: boolean; hashes: number; span: Span }
  | { kind: "expression"; expression: string; span: Span }
  | { kind: "identifier"; name: string; span: Span }
  | { kind: "number"; text: string; span: Span };

// ---------------------------------------------------------------------------------------------------------
// Type expressions

export type TypeExpression =
  | NamedTypeExpression
  | LiteralTypeExpression
  | ListTypeExpression
  | MapTypeExpression
  | UnionTypeExpression
  | OptionalTypeExpression
  | GroupTypeExpression
  | TupleTypeExpression
  | ErrorTypeExpression;

interface TypeExpressionBase {
  span: Span;
  /** Attributes written after this type (`(T @stream.done)[]`, `Sub @assert(…) | null`). */
  attributes: Attribute[];
}

/** A built-in (`string`, `image`), class, enum or alias name; resolved by the checker. */
export interface NamedTypeExpression extends TypeExpressionBase {
  kind: "named";
  name: string;
}
export interface LiteralTypeExpression extends TypeExpressionBase {
  kind: "literal";
  value: string | number | boolean;
  /** The literal as written, for the formatter. */
  text: string;
}
export interface ListTypeExpression extends TypeExpressionBase {
  kind: "list";
  item: TypeExpression;
}
/** `map<K, V>`; `typeArguments` keeps what was written so the checker can report a wrong count. */
export interface MapTypeExpression extends TypeExpressionBase {
  kind: "map";
  typeArguments: TypeExpression[];
}
export interface UnionTypeExpression extends TypeExpressionBase {
  kind: "union";
  options: TypeExpression[];
}
export interface OptionalTypeExpression extends TypeExpressionBase {
  kind: "optional";
  inner: TypeExpression;
}
/** `( T )`, kept so attributes inside parentheses stay on the inner type and the formatter can reprint. */
export interface GroupTypeExpression extends TypeExpressionBase {
  kind: "group";
  inner: TypeExpression;
}
/** `(A, B)`: accepted by the grammar, rejected by the checker (BAML does not support tuples). */
export interface TupleTypeExpression extends TypeExpressionBase {
  kind: "tuple";
  items: TypeExpression[];
}
/** Where a type was expected but could not be parsed (a diagnostic was already reported). */
export interface ErrorTypeExpression extends TypeExpressionBase {
  kind: "error";
}

// ---------------------------------------------------------------------------------------------------------
// Configuration blocks (`function`, `client`, `retry_policy`, `generator`, `test` bodies)

export type ConfigValue =
  | { kind: "string"; value: string; span: Span }
  | { kind: "raw-string"; value: string; hashes: number; contentStart: number; span: Span }
  /** Text written without quotes (`provider openai`, `model gpt-4o-mini`); identifiers are unquoted too. */
  | { kind: "unquoted"; value: string; span: Span }
  | { kind: "number"; value: number; text: string; span: Span }
  | { kind: "bool"; value: boolean; span: Span }
  | { kind: "null"; span: Span }
  | { kind: "env"; name: string; span: Span }
  | { kind: "array"; items: ConfigValue[]; span: Span }
  | { kind: "map"; block: ConfigBlock; span: Span }
  | { kind: "error"; span: Span };

export interface ConfigEntry {
  key: Identifier;
  /** Whether the key was written in quotes (`"anthropic-beta" "…"`), for the formatter. */
  quotedKey: boolean;
  value: ConfigValue;
  span: Span;
}

export interface ConfigBlock {
  entries: ConfigEntry[];
  /** `@@check` / `@@assert` inside a test. */
  attributes: Attribute[];
  /** Declarations inside `type_builder { … }` (tests only). */
  typeBuilder?: TypeBuilderBlock;
  span: Span;
}

export interface TypeBuilderBlock {
  declarations: TypeDeclaration[];
  span: Span;
  keywordSpan: Span;
}

// ---------------------------------------------------------------------------------------------------------
// Declarations

interface DeclarationBase {
  name: Identifier;
  /** Text of the `///` comments right above, with the `///` and one following space removed. */
  docs?: string;
  span: Span;
}

export interface FieldDecl {
  name: Identifier;
  type: TypeExpression;
  /** Attributes after the field's type that apply to the field (not to a part of the type). */
  attributes: Attribute[];
  docs?: string;
  span: Span;
}

export interface ClassDecl extends DeclarationBase {
  kind: "class";
  /** `dynamic class X` (allowed only inside a test's type_builder). */
  dynamic: boolean;
  /** Written `dynamic X { … }` without `class`/`enum` (the kind follows from the members or the target). */
  keywordless?: boolean;
  fields: FieldDecl[];
  attributes: Attribute[];
}

export interface EnumValueDecl {
  name: Identifier;
  attributes: Attribute[];
  docs?: string;
  span: Span;
}

export interface EnumDecl extends DeclarationBase {
  kind: "enum";
  dynamic: boolean;
  /** Written `dynamic E { … }` without `enum`. */
  keywordless?: boolean;
  values: EnumValueDecl[];
  attributes: Attribute[];
}

export interface TypeAliasDecl extends DeclarationBase {
  kind: "type-alias";
  type: TypeExpression;
}

export interface ParameterDecl {
  name: Identifier;
  type: TypeExpression;
  /** Attributes after the type that belong to the parameter (`@description("…")`). */
  attributes?: Attribute[];
  span: Span;
}

export interface FunctionDecl extends DeclarationBase {
  kind: "function";
  params: ParameterDecl[];
  returnType: TypeExpression;
  body: ConfigBlock;
}

/**
 * BAML's experimental expression function (a workflow): a body of statements (`let`, `if`, calls, a
 * final expression) instead of `client` and `prompt`. Sapling keeps only its signature, so names resolve
 * and tests that name it can be skipped with a warning; it never reaches the IR.
 */
export interface ExpressionFunctionDecl extends DeclarationBase {
  kind: "expression-function";
  params: ParameterDecl[];
  returnType: TypeExpression;
}

export interface ClientDecl extends DeclarationBase {
  kind: "client";
  /** `llm` in `client<llm>`; absent for a bare `client`. */
  clientType?: Identifier;
  body: ConfigBlock;
}

export interface RetryPolicyDecl extends DeclarationBase {
  kind: "retry-policy";
  body: ConfigBlock;
}

export interface GeneratorDecl extends DeclarationBase {
  kind: "generator";
  body: ConfigBlock;
}

export interface TestDecl extends DeclarationBase {
  kind: "test";
  body: ConfigBlock;
}

export interface TemplateStringDecl extends DeclarationBase {
  kind: "template-string";
  /** `template_string` or the older `string_template`. */
  keyword: string;
  params: ParameterDecl[];
  body?: Extract<ConfigValue, { kind: "raw-string" }>;
}

export type TypeDeclaration = ClassDecl | EnumDecl | TypeAliasDecl;

export type Declaration =
  | ClassDecl
  | EnumDecl
  | TypeAliasDecl
  | FunctionDecl
  | ExpressionFunctionDecl
  | ClientDecl
  | RetryPolicyDecl
  | GeneratorDecl
  | TestDecl
  | TemplateStringDecl;

/** A comment, kept so the formatter can reprint every one. */
export interface Comment {
  kind: "line" | "doc" | "block";
  span: Span;
}

export interface SourceFile {
  path: string;
  text: string;
  declarations: Declaration[];
  comments: Comment[];
}
