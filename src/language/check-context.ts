import {
  createDiagnostic,
  type Diagnostic,
  type DiagnosticArgs,
  type DiagnosticName,
  type DiagnosticNote,
  type Span,
} from "../diagnostics/index.js";
import type {
  ClassDecl,
  ClientDecl,
  EnumDecl,
  ExpressionFunctionDecl,
  FunctionDecl,
  GeneratorDecl,
  RetryPolicyDecl,
  TemplateStringDecl,
  TestDecl,
  TypeAliasDecl,
} from "./ast.js";
import type { Reporter } from "./reporter.js";

/** A declaration together with the file it came from. */
export interface Located<Node> {
  node: Node;
  file: string;
}

export type TypeSymbol = Located<ClassDecl | EnumDecl | TypeAliasDecl>;

/** Every top-level name in a project, per namespace (first declaration wins; duplicates are reported). */
export interface ProjectSymbols {
  /** Classes, enums and type aliases share one namespace. */
  types: Map<string, TypeSymbol>;
  functions: Map<string, Located<FunctionDecl>>;
  /** BAML's experimental expression functions: skipped, kept so tests naming them can be skipped too. */
  expressionFunctions: Map<string, Located<ExpressionFunctionDecl>>;
  clients: Map<string, Located<ClientDecl>>;
  retryPolicies: Map<string, Located<RetryPolicyDecl>>;
  templateStrings: Map<string, Located<TemplateStringDecl>>;
  generators: Map<string, Located<GeneratorDecl>>;
  tests: Map<string, Located<TestDecl>>;
}

/** What the checks share: the symbol table and the diagnostics sink. */
export class CheckContext {
  readonly diagnostics: Diagnostic[] = [];

  constructor(readonly symbols: ProjectSymbols) {}

  report<Name extends DiagnosticName>(
    name: Name,
    args: DiagnosticArgs<Name>,
    file: string,
    span: Span,
    notes: DiagnosticNote[] = [],
  ): void {
    this.diagnostics.push(createDiagnostic(name, args, { file, span }, notes));
  }

  /** A reporter bound to one file. */
  reporterFor(file: string): Reporter {
    return (name, args, span, notes = []) =>
      this.report(
        name,
        args,
        file,
        span,
        notes.map((note) => (note.span !== undefined && note.file === undefined ? { ...note, file } : note)),
      );
  }
}

/** `{ suggestion }` when there is one, `{}` otherwise (registry arguments use an optional property). */
export function suggestion(value: string | undefined): { suggestion?: string } {
  return value === undefined ? {} : { suggestion: value };
}
