import type { Comment, Span } from "./ast.js";

/**
 * Output lines plus the comment cursor the formatter needs to keep every comment: comments are emitted
 * before the first item that starts after them, or appended to the line they trailed in the source.
 * Items whose span contains a comment are printed verbatim, and the cursor skips what they contain.
 */
export class FormatPrinter {
  readonly lines: string[] = [];
  /** Source offset where the last emitted item or comment ended (for blank-line and trailing checks). */
  lastEnd = 0;
  private nextComment = 0;
  /** Whether the last line opened a block (no blank line is kept right after `{`). */
  private atBlockStart = true;

  constructor(
    readonly text: string,
    private readonly comments: readonly Comment[],
  ) {}

  /** The source text of a span (for items kept as written). */
  slice(span: Span): string {
    return this.text.slice(span.start, span.end);
  }

  /** Whether a comment starts inside `span` (so the item must be printed verbatim). */
  containsComment(span: Span): boolean {
    for (let index = this.nextComment; index < this.comments.length; index++) {
      const comment = this.comments[index] as Comment;
      if (comment.span.start >= span.end) return false;
      if (comment.span.start >= span.start) return true;
    }
    return false;
  }

  /** Emit comments that start before `offset`, each on its own line, keeping one blank line where there was one. */
  leadingComments(offset: number, indent: number): void {
    for (let comment = this.peek(); comment && comment.span.start < offset; comment = this.peek()) {
      this.blankLineIfSeparated(comment.span.start);
      this.push(indent, this.commentText(comment));
      this.nextComment++;
      this.lastEnd = comment.span.end;
      this.trailingComments();
    }
  }

  /** Emit a line for an item spanning `span` in the source, then any comment that trailed it. */
  item(indent: number, content: string, span: Span, keepBlankLine = true): void {
    this.leadingComments(span.start, indent);
    if (keepBlankLine) this.blankLineIfSeparated(span.start);
    this.push(indent, content);
    this.skipCommentsBefore(span.end);
    this.lastEnd = span.end;
    this.trailingComments();
  }

  /** Open a block: the header line ends at `openOffset` (the `{`). */
  open(indent: number, content: string, span: Span, openOffset: number): void {
    const header = { start: span.start, end: openOffset + 1 };
    // A comment inside the header (between parameters, before the `{`) keeps the header as written.
    this.item(indent, this.containsComment(header) ? this.slice(header) : content, header);
    this.atBlockStart = true;
  }

  /** Close a block whose `}` is at `closeOffset`: first the comments left inside it. */
  close(indent: number, closeOffset: number): void {
    this.leadingComments(closeOffset, indent + 1);
    this.atBlockStart = false;
    this.push(indent, "}");
    this.lastEnd = closeOffset + 1;
    this.trailingComments();
  }

  /** A blank line between top-level declarations. */
  separate(): void {
    if (this.lines.length > 0 && this.lines[this.lines.length - 1] !== "") this.lines.push("");
    this.atBlockStart = true;
  }

  finish(): string {
    this.leadingComments(Number.POSITIVE_INFINITY, 0);
    while (this.lines.length > 0 && this.lines[this.lines.length - 1] === "") this.lines.pop();
    return this.lines.length === 0 ? "" : `${this.lines.join("\n")}\n`;
  }

  private blankLineIfSeparated(offset: number): void {
    if (this.atBlockStart) return;
    if (hasBlankLine(this.text, this.lastEnd, offset) && this.lines[this.lines.length - 1] !== "")
      this.lines.push("");
  }

  private push(indent: number, content: string): void {
    this.lines.push(`${"  ".repeat(indent)}${content}`);
    this.atBlockStart = false;
  }

  /** Comments on the same source line as `lastEnd` go at the end of the last printed line. */
  private trailingComments(): void {
    for (let comment = this.peek(); comment; comment = this.peek()) {
      const between = this.text.slice(this.lastEnd, comment.span.start);
      if (between.includes("\n") || between.includes("\r") || between.trim() !== "") return;
      this.lines[this.lines.length - 1] += ` ${this.commentText(comment)}`;
      this.nextComment++;
      this.lastEnd = comment.span.end;
    }
  }

  private skipCommentsBefore(offset: number): void {
    for (let comment = this.peek(); comment && comment.span.start < offset; comment = this.peek())
      this.nextComment++;
  }

  private peek(): Comment | undefined {
    return this.comments[this.nextComment];
  }

  private commentText(comment: Comment): string {
    const text = this.text.slice(comment.span.start, comment.span.end);
    return comment.kind === "block" ? text : text.trimEnd();
  }
}

/** Whether the text between two offsets contains an empty line. */
export function hasBlankLine(text: string, from: number, to: number): boolean {
  if (to <= from) return false;
  return /\n[ \t]*\r?\n/.test(text.slice(from, to));
}
