/**
 * Reasoning before the answer. Models wrap their reasoning in `<think>`, `<thinking>` or `<reasoning>`
 * tags (qwen3, DeepSeek-R1, …; matched case-insensitively). Text inside a closed reasoning block is not
 * the answer when an answer follows it: the answer starts just after the last closed block, when
 * something other than blanks follows it. (The reasoning stays there as a fallback reading.) The reader
 * feeds `ReasoningBlocks` chunk by chunk (the whole answer at once in final mode) and reads the answer
 * start as the text grows.
 *
 * Reasoning models served with the opening tag already in the chat template (DeepSeek-R1, QwQ, qwen3 in
 * thinking mode) write only the closing one: a closing tag that comes before any other reasoning tag
 * ends a block that opened at the start of the text (`17*3=51 … </think>⏎⏎391`).
 */

/** Longer names first: `<thinking>` is not `<think>` followed by text. */
const NAMES = ["thinking", "reasoning", "think"] as const;
/** The longest tag, `</reasoning>`: a tag cut by a chunk boundary is at most this long minus one. */
const LONGEST_TAG = "</reasoning>".length;
const BLANK = /\s/;

/** The reasoning blocks of a text that arrives in chunks (each character is looked at once). */
export class ReasoningBlocks {
  /** The name of the block open now (its closing tag is the only tag that counts), else undefined. */
  private open: string | undefined;
  /** Text not scanned yet: a `<` near the end of the last chunk that may begin a tag cut in two. */
  private pending = "";
  /** Where `pending` starts in the whole text. */
  private offset = 0;
  /** Where the last closed block ends, and where the last non-blank character is (-1: none yet). */
  private lastEnd = -1;
  private lastNonBlank = -1;
  /** How many blocks have closed so far. */
  closed = 0;
  /** A reasoning tag has counted (a closing tag after it no longer closes a block opened at the start). */
  private tagged = false;

  /**
   * `declared`: the target's section names (`SectionNames.fields`): a tag named as a declared field
   * (`<reasoning>` for a class with a `reasoning` field) opens that field's section, not reasoning.
   */
  constructor(private readonly declared?: ReadonlyMap<string, unknown>) {}

  /** Where the last closed block ends (-1: none has closed). */
  get lastClosedEnd(): number {
    return this.lastEnd;
  }

  /** A block is open, or a tag may be cut in two at the end: the end of the answer would decide. */
  get unsettled(): boolean {
    return this.open !== undefined || this.pending !== "";
  }

  /**
   * Where the answer starts, for the text so far: just after the last closed block, when more than blanks
   * follow it; else undefined.
   */
  get answerStart(): number | undefined {
    return this.lastEnd >= 0 && this.lastNonBlank >= this.lastEnd ? this.lastEnd : undefined;
  }

  push(chunk: string): void {
    const start = this.offset + this.pending.length;
    for (let index = chunk.length - 1; index >= 0; index--) {
      if (!BLANK.test(chunk[index]!)) {
        this.lastNonBlank = start + index;
        break;
      }
    }
    const text = this.pending + chunk;
    for (let at = text.indexOf("<"); at >= 0; at = text.indexOf("<", at + 1)) {
      const tag = this.tagAt(text, at);
      if (tag === undefined) {
        if (text.length - at < LONGEST_TAG && mayStartTag(text, at)) {
          // Perhaps a tag cut in two: look again once more text has come.
          this.pending = text.slice(at);
          this.offset += at;
          return;
        }
        continue;
      }
      this.tagged = true;
      if (this.open === undefined && text[at + 1] !== "/") {
        this.open = tag;
      } else {
        // (The open block's closing tag, or a lone one closing the block the text started in.)
        this.open = undefined;
        this.closed++;
        this.lastEnd = this.offset + at + tag.length + 3;
      }
    }
    this.offset += text.length;
    this.pending = "";
  }

  /** The text is whole: a tag cut in two at its end was no tag. */
  end(): void {
    this.offset += this.pending.length;
    this.pending = "";
  }

  /**
   * The name of the tag at `at` that counts now: an opening one, the open block's closing one, or, before
   * any tag has counted, a lone closing one.
   */
  private tagAt(text: string, at: number): string | undefined {
    if (this.open !== undefined) {
      const close = `</${this.open}>`;
      return text.slice(at, at + close.length).toLowerCase() === close ? this.open : undefined;
    }
    const closing = text[at + 1] === "/";
    if (closing && this.tagged) return undefined;
    const start = closing ? 2 : 1;
    for (const name of NAMES) {
      const written = text.slice(at + start, at + start + name.length + 1).toLowerCase();
      if (written === `${name}>`) return this.declared?.has(name) ? undefined : name;
    }
    return undefined;
  }
}

/** Whether the text from `at` (a `<`) to its end could be the start of a reasoning tag. */
function mayStartTag(text: string, at: number): boolean {
  const rest = text.slice(at).toLowerCase();
  return NAMES.some((name) => `<${name}>`.startsWith(rest) || `</${name}>`.startsWith(rest));
}
