/**
 * The BAML scanner: a hand-written state machine over UTF-16 code units, long because every token form
 * lives here (identifiers, numbers, quoted and raw strings, punctuation, three comment kinds).
 *
 * Tokens are produced on demand so the parser can switch modes where BAML's grammar is context-sensitive:
 * unquoted configuration values (`model gpt-4o-mini`) and Jinja expressions (`{{ this > 0 }}`) are read by
 * `scanUnquoted` / `scanExpression` from a given offset, after which the parser resumes normal scanning.
 * Problems (unterminated strings, stray characters) are reported as diagnostics; the scanner never throws
 * and always advances.
 */
import { createDiagnostic, type Diagnostic, type DiagnosticArgs } from "../diagnostics/index.js";
import type { Comment } from "./ast.js";

export type TokenKind =
  | "identifier"
  | "number"
  | "string"
  | "raw-string"
  | "{"
  | "}"
  | "("
  | ")"
  | "["
  | "]"
  | "<"
  | ">"
  | ","
  | ":"
  | "|"
  | "?"
  | "="
  | "."
  | "@"
  | "@@"
  | "->"
  | "invalid"
  | "eof";

export interface Token {
  kind: TokenKind;
  start: number;
  end: number;
  /** Identifier name, number text, or the decoded string / raw-string content. */
  value: string;
  /** A line break separates this token from the previous one. */
  newlineBefore: boolean;
  /** `///` lines directly above this token, joined with newlines. */
  docs?: string;
  /** Raw strings: number of `#` and where the content starts. */
  hashes?: number;
  contentStart?: number;
}

const maxHashes = 5;

export class Scanner {
  offset = 0;
  private lastCommentStart = -1;
  /** Set by `skipTrivia` for the token that follows. */
  private sawNewline = false;
  private pendingDocs: string[] | undefined;

  constructor(
    readonly text: string,
    readonly file: string,
    private readonly diagnostics: Diagnostic[],
    readonly comments: Comment[],
  ) {}

  /** Scan the next token from `offset`, skipping whitespace and comments. */
  next(): Token {
    this.skipTrivia();
    const start = this.offset;
    const token = this.scanToken(start);
    token.newlineBefore = this.sawNewline;
    if (this.pendingDocs !== undefined) token.docs = this.pendingDocs.join("\n");
    return token;
  }

  /**
   * Read an unquoted configuration value starting at `start`: everything up to the end of the line, a
   * comment, or a delimiter (`,` `}` `]` `{` `[`, or a `)` that closes nothing), trimmed. Returns the value and where it ends; the
   * caller resumes scanning there.
   */
  scanUnquoted(start: number): { value: string; end: number } {
    let index = start;
    const text = this.text;
    // Parentheses nest, so a call (`Greeting(43)`, a template string in a test argument) stays whole.
    let parentheses = 0;
    while (index < text.length) {
      const character = text[index];
      if (character === "(") parentheses++;
      else if (character === ")" && parentheses > 0) {
        parentheses--;
        index++;
        continue;
      }
      if (
        character === "\n" ||
        character === "\r" ||
        character === "," ||
        character === "}" ||
        character === "]" ||
        character === "{" ||
        character === "[" ||
        character === ")" ||
        character === '"'
      ) {
        break;
      }
      // `//` starts a comment only after a space, so URLs (`http://host`) stay whole.
      if (
        character === "/" &&
        text[index + 1] === "/" &&
        (index === start || isSpace(text.charCodeAt(index - 1)))
      ) {
        break;
      }
      index++;
    }
    let end = index;
    while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
    return { value: text.slice(start, end), end };
  }

  /**
   * Read a Jinja expression `{{ … }}` starting at `start` (which holds `{{`). Returns the text between the
   * braces (untrimmed) and the end offset; an unclosed expression runs to the end of the line.
   */
  scanExpression(start: number): { inner: string; end: number } {
    const close = this.text.indexOf("}}", start + 2);
    if (close < 0) {
      let end = start + 2;
      while (end < this.text.length && this.text[end] !== "\n") end++;
      this.report("unterminated-expression", {}, start, start + 2);
      this.offset = end;
      return { inner: this.text.slice(start + 2, end), end };
    }
    this.offset = close + 2;
    return { inner: this.text.slice(start + 2, close), end: close + 2 };
  }

  /** Whether the text at `offset` starts a `{{` expression. */
  startsExpression(offset: number): boolean {
    return this.text[offset] === "{" && this.text[offset + 1] === "{";
  }

  /** Skip whitespace and comments; records whether a line break was seen and the `///` lines just above. */
  private skipTrivia(): void {
    const text = this.text;
    this.sawNewline = false;
    this.pendingDocs = undefined;
    while (this.offset < text.length) {
      const code = text.charCodeAt(this.offset);
      if (code === 10 || code === 13) {
        this.sawNewline = true;
        this.offset++;
        // A blank line detaches doc comments from what follows.
        if (this.pendingDocs !== undefined && this.blankLineAhead()) this.pendingDocs = undefined;
        continue;
      }
      if (isSpace(code)) {
        this.offset++;
        continue;
      }
      if (code === 47 /* / */ && text.charCodeAt(this.offset + 1) === 47) {
        const start = this.offset;
        let end = start;
        while (end < text.length && text[end] !== "\n" && text[end] !== "\r") end++;
        const isDoc = text[start + 2] === "/" && text[start + 3] !== "/";
        this.addComment({ kind: isDoc ? "doc" : "line", span: { start, end } });
        if (isDoc) {
          const line = text.slice(start + 3, end);
          this.pendingDocs ??= [];
          this.pendingDocs.push(line.startsWith(" ") ? line.slice(1) : line);
        } else {
          this.pendingDocs = undefined;
        }
        this.offset = end;
        continue;
      }
      if (code === 123 /* { */ && text[this.offset + 1] === "/" && text[this.offset + 2] === "/") {
        const start = this.offset;
        const close = text.indexOf("//}", start + 3);
        const end = close < 0 ? text.length : close + 3;
        if (close < 0) this.report("unterminated-block-comment", {}, start, start + 3);
        this.addComment({ kind: "block", span: { start, end } });
        if (text.slice(start, end).includes("\n")) this.sawNewline = true;
        this.pendingDocs = undefined;
        this.offset = end;
        continue;
      }
      break;
    }
  }

  private blankLineAhead(): boolean {
    let index = this.offset;
    while (index < this.text.length && isSpace(this.text.charCodeAt(index))) index++;
    return this.text[index] === "\n" || this.text[index] === "\r";
  }

  private addComment(comment: Comment): void {
    if (comment.span.start <= this.lastCommentStart) return;
    this.lastCommentStart = comment.span.start;
    this.comments.push(comment);
  }

  private scanToken(start: number): Token {
    const text = this.text;
    if (start >= text.length) return this.token("eof", start, start, "");
    const character = text[start] as string;
    const code = text.charCodeAt(start);
    if (isIdentifierStart(code)) {
      let end = start + 1;
      while (end < text.length && isIdentifierPart(text.charCodeAt(end))) end++;
      return this.token("identifier", start, end, text.slice(start, end));
    }
    if (isDigit(code) || (character === "-" && isDigit(text.charCodeAt(start + 1)))) {
      let end = start + 1;
      while (end < text.length && isDigit(text.charCodeAt(end))) end++;
      if (text[end] === "." && isDigit(text.charCodeAt(end + 1))) {
        end += 2;
        while (end < text.length && isDigit(text.charCodeAt(end))) end++;
      }
      return this.token("number", start, end, text.slice(start, end));
    }
    if (character === '"') return this.scanString(start);
    if (character === "#") {
      let hashes = 0;
      while (text[start + hashes] === "#") hashes++;
      if (text[start + hashes] === '"' && hashes <= maxHashes) return this.scanRawString(start, hashes);
    }
    if (character === "@") {
      const double = text[start + 1] === "@";
      return this.token(double ? "@@" : "@", start, start + (double ? 2 : 1), double ? "@@" : "@");
    }
    if (character === "-" && text[start + 1] === ">") return this.token("->", start, start + 2, "->");
    if ("{}()[]<>,:|?=.".includes(character)) {
      return this.token(character as TokenKind, start, start + 1, character);
    }
    // Anything else is a stray character. It may begin an unquoted value (`base_url $HOST`), so the parser
    // decides whether it is an error; skipping it here keeps scanning moving forward.
    const width = code >= 0xd800 && code <= 0xdbff ? 2 : 1;
    return this.token("invalid", start, start + width, text.slice(start, start + width));
  }

  private scanString(start: number): Token {
    const text = this.text;
    let index = start + 1;
    let value = "";
    while (index < text.length) {
      const character = text[index] as string;
      if (character === '"') {
        return this.token("string", start, index + 1, value);
      }
      if (character === "\n" || character === "\r") break;
      if (character === "\\" && index + 1 < text.length) {
        const escaped = text[index + 1] as string;
        value += escapes[escaped] ?? escaped;
        index += 2;
        continue;
      }
      value += character;
      index++;
    }
    this.report("unterminated-string", {}, start, index);
    return this.token("string", start, index, value);
  }

  private scanRawString(start: number, hashes: number): Token {
    const closing = `"${"#".repeat(hashes)}`;
    const contentStart = start + hashes + 1;
    const close = this.text.indexOf(closing, contentStart);
    let end: number;
    let value: string;
    if (close < 0) {
      this.report("unterminated-raw-string", { closing }, start, contentStart);
      end = this.text.length;
      value = this.text.slice(contentStart);
    } else {
      end = close + closing.length;
      value = this.text.slice(contentStart, close);
    }
    const token = this.token("raw-string", start, end, value);
    token.hashes = hashes;
    token.contentStart = contentStart;
    return token;
  }

  private token(kind: TokenKind, start: number, end: number, value: string): Token {
    this.offset = end;
    return { kind, start, end, value, newlineBefore: false };
  }

  private report<Name extends ScannerDiagnostic>(
    name: Name,
    args: DiagnosticArgs<Name>,
    start: number,
    end: number,
  ): void {
    this.diagnostics.push(createDiagnostic(name, args, { file: this.file, span: { start, end } }));
  }
}

type ScannerDiagnostic =
  | "unterminated-string"
  | "unterminated-raw-string"
  | "unterminated-block-comment"
  | "unterminated-expression";

const escapes: Record<string, string> = { n: "\n", t: "\t", r: "\r", '"': '"', "\\": "\\", "0": "\0" };

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 11 || code === 12 || code === 0xfeff || code === 0xa0;
}
function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}
function isIdentifierStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}
function isIdentifierPart(code: number): boolean {
  return isIdentifierStart(code) || isDigit(code);
}
