/**
 * The markdown fence rule, consulted by the `AnswerScanner` (the one reader of an answer, for streams and
 * final mode alike). Every decision is made from the text before the backticks, the backticks
 * themselves, and at most the rest of their line, so a stream decides each one as soon as it arrives, the
 * way a whole answer read at once does:
 *
 * - A fence marker is a run of three or more backticks (the whole run: ```` ```` ```` is one marker).
 * - Opening (in prose): the run opens a fence where it begins its line (only blanks before it), or where
 *   the prose reader is outside any JSON value; mid-line inside a value (`{"body": "use ```x``` here"}`,
 *   `"code": ```…`) it is text of that value, and inside a ``` code block written as a value (or a
 *   `"""` string) it is that block's text or its end, wherever it stands (`"code": ```⏎x⏎```,`).
 * - Header: the info string (letters, digits, `_+.-`) is the tag; when only blanks follow it on its line
 *   the content starts on the next line, else right after the tag (a one-line fence, ```` ```json {…}``` ````).
 * - Closing, as in CommonMark a run at least as long as the opening one (a ```` ```` ```` fence holds
 *   ```` ``` ```` blocks). Then, when the fence's content is read as JSON (no tag, or a `json…` tag):
 *   a run inside a string of the content is text of it when it stands mid-line or ends a code block
 *   of that string (a block the string's text opened, with raw line breaks; a ```` ``` ```` code block
 *   written as a value), and alone on its line otherwise closes the fence (the string's closing quote
 *   was dropped: the string ends before the fence, as in BAML); outside strings it closes the fence
 *   where it begins its line; mid-line inside a value it is text (the backticks that open
 *   `"code": ```…`); mid-line outside any value it closes the fence after JSON (`{"a": 1}``` bye`), and
 *   in plain text (`Use ```x``` here`) where only blanks follow it on its line. When the content is
 *   code in another language (its brackets and quotes say nothing about JSON), the run closes the fence
 *   where it begins its line, or where only blanks follow it on its line, or anywhere on the opening line
 *   of a fence whose content started on it (`Run ```bash npm test``` to check`: inline code).
 *
 * Nothing waits for the end of the answer: a closing run followed by more text on its line closes the
 * fence or not by these rules alone (final mode no longer looks for a later closing line first).
 */

/** What a reader of the fence's content knows at the backticks (the fixing parser answers both). */
export interface FenceContentState {
  /** Inside a top-level JSON value (a container not yet closed). */
  readonly insideValue: boolean;
  /** The next character would be text of an open string. */
  readonly insideString: boolean;
  /**
   * The next character would be text of a code block in an open string (a ``` block the string's own
   * text opened, a ``` code block written as a value, a `"""` string).
   */
  readonly insideCodeBlockText: boolean;
  /** The containers read so far (a closed one, when outside any value). */
  readonly roots: { readonly length: number };
}

/** What the prose reader knows at the backticks (the fixing parser answers both). */
export interface ProseState {
  /** Inside a top-level JSON value (a container not yet closed). */
  readonly insideValue: boolean;
  /** The next character would be text of a `"""` string or a ``` code block written as a value. */
  readonly insideTripleString: boolean;
}

/** An open fence, as the closing rule needs it. */
export interface OpenFence {
  /** Backticks in the opening run. */
  run: number;
  /** Its content is read as JSON (see `readsAsJson`). */
  json: boolean;
  /** Its content started on its opening line (```` ```bash npm test``` ````) and no line has ended since. */
  inline: boolean;
}

/** A run of backticks inside a fence: it closes it, is text of it, or closes it if its line ends next. */
export type ClosingDecision = "closes" | "text" | "closes-if-line-ends";

/** Whether a fence with this tag holds JSON (no tag, `json`, `json5`, `jsonc`, …) rather than code. */
export function readsAsJson(tag: string): boolean {
  return tag === "" || /^json/i.test(tag);
}

/** The length of the run of backticks at `at`. */
export function backtickRun(text: string, at: number): number {
  let end = at;
  while (end < text.length && text.charCodeAt(end) === 96 /* ` */) end++;
  return end - at;
}

/** Whether a run of backticks in prose opens a fence (see the file header). */
export function opensFence(beginsLine: boolean, prose: ProseState): boolean {
  if (prose.insideTripleString) return false;
  return beginsLine || !prose.insideValue;
}

/** Whether only blanks stand before `at` on its line (the start of the text begins a line). */
export function beginsLine(text: string, at: number): boolean {
  let index = at;
  while (index > 0 && isLineBlank(text.charCodeAt(index - 1))) index--;
  return index === 0 || text.charCodeAt(index - 1) === 10;
}

/**
 * Whether a run of `run` backticks inside `fence` closes it (see the file header). `content` is asked
 * only when the answer depends on it, so a caller may read the content up to the run lazily.
 */
export function closesFence(
  fence: OpenFence,
  run: number,
  beginsLine: boolean,
  content: () => FenceContentState,
): ClosingDecision {
  if (run < fence.run) return "text";
  if (!fence.json) return beginsLine || fence.inline ? "closes" : "closes-if-line-ends";
  const state = content();
  // A run alone on its line inside a string closes the fence, unless it closes a code block the string
  // holds: the string's closing quote was dropped (BAML stops at the fence too).
  if (state.insideString) return beginsLine && !state.insideCodeBlockText ? "closes-if-line-ends" : "text";
  if (beginsLine) return "closes";
  if (state.insideValue) return "text";
  // Outside any value, mid-line: right after JSON it closes (`{"a": 1}``` bye`); in plain text
  // (`Use ```x``` here`) only where its line ends.
  return state.roots.length > 0 ? "closes" : "closes-if-line-ends";
}

/** Space, tab or carriage return: what may stand around a marker on its line. */
export function isLineBlank(code: number): boolean {
  return code === 32 || code === 9 || code === 13;
}

/**
 * Where a fence's content starts, from the end of its opening run `at`: `{ tag, contentStart }`, or
 * undefined when the text so far does not say yet (`ended`: no more text will come).
 */
export function readFenceHeader(
  text: string,
  at: number,
  ended: boolean,
): { tag: string; contentStart: number } | undefined {
  let index = at;
  while (index < text.length && TAG_CHAR.test(text[index]!)) index++;
  let rest = index;
  while (rest < text.length && isLineBlank(text.charCodeAt(rest))) rest++;
  if (rest >= text.length && !ended) return undefined;
  const tag = text.slice(at, index);
  if (rest >= text.length) return { tag, contentStart: text.length };
  // A one-line fence (```json {"a": 1}```): the content starts right after the tag.
  return { tag, contentStart: text[rest] === "\n" ? rest + 1 : index };
}

/**
 * Whether only blanks follow `at` on its line: true or false, or undefined when the text so far ends
 * in blanks (`ended`: no more text will come, and the line ends with the text).
 */
export function lineEndsAfter(text: string, at: number, ended: boolean): boolean | undefined {
  let index = at;
  while (index < text.length && isLineBlank(text.charCodeAt(index))) index++;
  if (index >= text.length) return ended ? true : undefined;
  return text[index] === "\n";
}

const TAG_CHAR = /[A-Za-z0-9_+.-]/;

/** Outside any value, after one (valid JSON holding a container) or not (a JSON scalar). */
const AFTER_CONTAINER: FenceContentState = {
  insideValue: false,
  insideString: false,
  insideCodeBlockText: false,
  roots: [0],
};
const AFTER_SCALAR: FenceContentState = {
  insideValue: false,
  insideString: false,
  insideCodeBlockText: false,
  roots: [],
};

/** Where the fixing parser stands after reading valid JSON (nothing open; a root if it was a container). */
export function outsideAfter(value: unknown): FenceContentState {
  return typeof value === "object" && value !== null ? AFTER_CONTAINER : AFTER_SCALAR;
}
