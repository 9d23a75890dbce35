import {
  createDiagnostic,
  type Diagnostic,
  type DiagnosticArgs,
  type DiagnosticName,
} from "../diagnostics/index.js";
import type { Comment, Span } from "./ast.js";
import { Scanner, type Token, type TokenKind } from "./scanner.js";

/**
 * The parser's view of the scanner: one token of lookahead, helpers to expect and report, and the
 * rescanning hooks for BAML's context-sensitive spots. Every `parseX` function takes one of these.
 */
export class TokenStream {
  readonly diagnostics: Diagnostic[] = [];
  readonly comments: Comment[] = [];
  readonly scanner: Scanner;
  current: Token;
  /** End offset of the last consumed token, for node spans. */
  previousEnd = 0;
  /** Nesting of parenthesized types and configuration values; bounded so deep input cannot overflow. */
  depth = 0;
  private readonly reported = new Set<string>();

  constructor(
    readonly text: string,
    readonly file: string,
  ) {
    this.scanner = new Scanner(text, file, this.diagnostics, this.comments);
    this.current = this.scanner.next();
  }

  /** Consume the current token and return it. At end of file this stays at `eof`. */
  advance(): Token {
    const token = this.current;
    if (token.kind !== "eof") {
      this.previousEnd = token.end;
      this.current = this.scanner.next();
    }
    return token;
  }

  /**
   * The offset of the current token. Parsing loops compare it before and after an iteration: the scanner
   * only moves forward, so an unchanged value means the iteration consumed nothing, and the loop calls
   * `skipToken` — which always moves forward — so no input can make the parser spin.
   */
  get progress(): number {
    return this.current.start;
  }

  /** Move past the current token without interpreting it (loop guard; the caller has reported why). */
  skipToken(): void {
    if (this.current.kind === "eof") return;
    const end = Math.max(this.current.end, this.current.start + 1);
    this.resumeAt(end, end);
  }

  at(kind: TokenKind, value?: string): boolean {
    return this.current.kind === kind && (value === undefined || this.current.value === value);
  }

  atIdentifier(value: string): boolean {
    return this.current.kind === "identifier" && this.current.value === value;
  }

  /** Consume a token of `kind` or report what was expected (without consuming anything). */
  expect(kind: TokenKind, expected: string): Token | undefined {
    if (this.current.kind === kind) return this.advance();
    this.reportUnexpected(expected);
    return undefined;
  }

  /** Continue scanning from `offset` (after the parser read a span itself, e.g. an unquoted value). */
  resumeAt(offset: number, consumedEnd: number): void {
    this.previousEnd = consumedEnd;
    // Never move backwards past the current token: that is what guarantees termination.
    this.scanner.offset = Math.max(offset, this.current.start + 1);
    this.current = this.scanner.next();
  }

  reportUnexpected(expected: string): void {
    const token = this.current;
    if (token.kind === "invalid") {
      this.report("invalid-character", { character: token.value }, token);
    } else {
      this.report("unexpected-token", { expected, found: describeToken(token) }, token);
    }
  }

  /**
   * Report a syntax error. A second error of the same code at the same offset is dropped: when recovery
   * unwinds several nested constructs at one token, the first message is the useful one.
   */
  report<Name extends DiagnosticName>(name: Name, args: DiagnosticArgs<Name>, span: Span): void {
    const key = `${name}:${span.start}`;
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.diagnostics.push(
      createDiagnostic(name, args, { file: this.file, span: { start: span.start, end: span.end } }),
    );
  }

  /** Skip to the start of the next line (or a closing `}` on this line), consuming at least one token. */
  skipLine(): void {
    if (this.at("eof") || this.at("}")) return;
    this.advance();
    while (!this.at("eof") && !this.current.newlineBefore && !this.at("}")) {
      if (this.at("{")) this.skipBalanced();
      else this.advance();
    }
  }

  /** Skip a `{ … }` group including nested ones (used when a block cannot be parsed). */
  skipBalanced(): void {
    let depth = 0;
    do {
      if (this.at("{")) depth++;
      else if (this.at("}")) depth--;
      this.advance();
    } while (depth > 0 && !this.at("eof"));
  }

  /** Whether another nesting level is allowed; reports once at the limit (the caller then stops nesting). */
  tooDeep(): boolean {
    if (this.depth < maxDepth) return false;
    this.report("nesting-too-deep", { limit: maxDepth }, this.current);
    return true;
  }

  span(start: number): Span {
    return { start, end: Math.max(start, this.previousEnd) };
  }
}

const maxDepth = 128;

export function describeToken(token: Token): string {
  switch (token.kind) {
    case "eof":
      return "the end of the file";
    case "identifier":
      return `"${token.value}"`;
    case "number":
      return `the number ${token.value}`;
    case "string":
      return "a string";
    case "raw-string":
      return "a raw string";
    default:
      return `"${token.value}"`;
  }
}
