import { QuotedAnswer } from "../kinds/primitive/quoted-answer.js";
import { FixingParser, type ParsedRoot } from "./fixing-parser.js";
import { type JsonishNode, nodeFromJson } from "./jsonish-node.js";
import type { StrictJson } from "./parse-strict-json.js";
import type { LabelReading } from "./read-label-lines.js";
import type { TextRange } from "./read-sections.js";

export { parseStrictJson, type StrictJson } from "./parse-strict-json.js";

/**
 * Where a candidate came from. `json`: the whole answer is valid JSON. `fence`: a markdown code block.
 * `prose`: a balanced object or array found in the text around fences. `combined`: all object candidates
 * gathered into one array (for list targets answered one object at a time). `text`: the answer (or a
 * fence's content) as plain text, for scalar targets.
 */
export type CandidateOrigin = "json" | "fence" | "prose" | "combined" | "text";

/** One plausible reading of the answer. */
export interface Candidate {
  node: JsonishNode;
  origin: CandidateOrigin;
  /** Repairs the fixing parser made (empty when the source was valid JSON). */
  repairs: string[];
  /** Position in the answer; on equal scores the later candidate wins (final answers follow drafts). */
  order: number;
  /** The fence's language tag, for `fence` candidates. */
  fenceTag?: string;
  /**
   * Read from a fence that is only part of the answer (more than a one-line lead-in before it, text or
   * another fence after it): as a string it ranks below the answer as text (`fenceIsTheAnswer`).
   */
  fenceInProse?: boolean;
  /**
   * For a candidate taken from inside a container that never closed (a stray `[` in prose, say): that
   * container's candidate. Only tried when the container itself does not fit.
   */
  parent?: Candidate;
  /** Other text (prose) surrounds this candidate in the answer. */
  surrounded?: boolean;
  /** The `JSON.parse` value, for candidates that were valid JSON (the exact fast path reads it). */
  json?: StrictJson;
  /** Where the candidate's root sits in the answer (absolute offsets), for parsed candidates. */
  span?: { start: number; end: number };
  /**
   * The whole answer is one quoted string (closed or cut off): for targets that read text, brackets and
   * fences inside it are its text, not readings of their own (as a stream reads it).
   */
  wholeString?: boolean;
  /**
   * A reading of the whole answer, reasoning included, when an answer follows a closed reasoning block
   * (`<think>…</think>`): only tried when no reading of the answer after it fits.
   */
  reasoning?: boolean;
  /**
   * Label lines read as one object that write their first key (this one) again with a whole record
   * after it: the object kept the last values and lost a record's (flagged `KeyCollision`).
   */
  overwritten?: string;
}

/** The repair a sections reading (`readSections`) is flagged with. */
export const SECTIONS_REPAIR = "sections named by the fields";

/** How candidates rank on equal score: a fence beats prose, and any parse beats plain text. */
export const ORIGIN_RANK: Record<CandidateOrigin, number> = {
  json: 4,
  fence: 3,
  combined: 2,
  prose: 2,
  text: 0,
};

/**
 * The candidates of label lines (`reading`), one rule for final mode and a stream's end: the object (or
 * list of records), flagged where a key written again lost a record (`overwritten`), then the records a
 * first key written again starts (`LabelLines.repeats`), which win a tie as a finer reading of the same
 * lines. `fields`: where the lines are (origin, order, span, fence tag).
 */
export function labelCandidates(
  reading: LabelReading,
  fields: Pick<Candidate, "origin" | "order" | "span" | "fenceTag">,
): Candidate[] {
  const repairs = ["key: value lines"];
  const read: Candidate[] = [{ ...fields, node: reading.node, repairs, overwritten: reading.overwritten }];
  const repeats = reading.repeats;
  if (repeats !== undefined)
    read.push({
      ...fields,
      node: repeats,
      repairs: [...repairs, "a record at each first key written again"],
    });
  return read;
}

/**
 * Whether a root (its offsets counting from `offset` in the text a sections reading read) lies in one of
 * the YAML blocks that reading read (`Sections.yamlBlocks`): such a flow list or map is a part of that
 * block's value, and never a reading of the whole answer (each one, a candidate of its own, cost an
 * answer of many items a candidate and a coercion each). Undefined when there are no blocks.
 */
export function inYamlBlocks(
  blocks: readonly TextRange[] | undefined,
): ((root: ParsedRoot, offset: number) => boolean) | undefined {
  if (blocks === undefined || blocks.length === 0) return undefined;
  return (root, offset) =>
    blocks.some((block) => root.start + offset >= block.start && root.end + offset <= block.end);
}

/**
 * One candidate per root; a root that never closed (a stray bracket, or truncation) also offers the
 * complete containers directly inside it, since the stray bracket may be the only thing wrong.
 */
export function candidatesFromRoots(roots: ParsedRoot[], origin: "fence" | "prose"): Candidate[] {
  const found: Candidate[] = [];
  for (const root of roots) {
    const span = { start: root.start, end: root.end };
    const parent: Candidate = { node: root.node, origin, repairs: root.repairs, order: span.start, span };
    found.push(parent);
    if (root.node.complete) continue;
    const children =
      root.node.kind === "array" ? root.node.items : root.node.entries.map((entry) => entry[1]);
    for (const child of children) {
      if ((child.kind === "object" || child.kind === "array") && child.complete) {
        found.push({ node: child, origin, repairs: root.repairs, order: span.start, span, parent });
      }
    }
  }
  return found;
}

export function isObjectCandidate(candidate: Candidate): boolean {
  if (candidate.json === undefined) return candidate.node.kind === "object";
  const value = candidate.json.value;
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A candidate from valid JSON whose node tree is built only when something asks for it. */
export function jsonCandidate(
  json: StrictJson,
  source: string,
  offset: number,
  fields: Omit<Candidate, "node" | "json">,
): Candidate {
  let node: JsonishNode | undefined;
  return {
    ...fields,
    json,
    get node() {
      node ??= nodeFromText(json.value, source, offset);
      return node;
    },
  };
}

/**
 * A number `String(JSON.parse(…))` does not give back as written: a trailing zero in the fraction, an
 * exponent, a leading zero of the fraction's integer part written as `-0`, or more digits than a double
 * keeps (`1.50` read as a string stays "1.50", as a stream shows it). Containers are always read from the
 * text (below): their nodes then point at it, for the flags, and keep every number as written.
 */
const RESPELLED_NUMBER = /\d\.\d*0(?!\d)|\d[eE]|\d{16}|-0(?![.\d])/;

/**
 * Nodes for valid JSON that is not exactly of the type, read from its text by the fixing parser: they
 * carry offsets, so each repair flag points where it happened, and numbers keep their written digits
 * (`12345678901234567890` rather than the double it rounds to), so a number too large for its type is
 * reported, or kept as text, as written.
 */
function nodeFromText(value: unknown, source: string, offset: number): JsonishNode {
  if (typeof value !== "object" || value === null) {
    if (typeof value !== "number" || !RESPELLED_NUMBER.test(source)) return nodeFromJson(value);
    return { kind: "number", value, text: source.trim(), complete: true };
  }
  const parser = new FixingParser(offset);
  parser.push(source);
  return parser.end()[0]!.node;
}

/** A whole answer that is one Python/JSON literal in another spelling (`None`, `True`, `FALSE`). */
export function bareLiteral(text: string, offset: number): Candidate | undefined {
  if (text.length > 16) return undefined;
  const word = text.trim();
  const lower = word.toLowerCase();
  let node: JsonishNode;
  if (lower === "none" || lower === "null") node = { kind: "null", complete: true };
  else if (lower === "true" || lower === "false")
    node = { kind: "bool", value: lower === "true", complete: true };
  else return undefined;
  return { node, origin: "prose", repairs: ["python literal"], order: offset };
}

/** Quotes that may wrap a whole answer: `"…"`, `'…'`, `“…”`. */
const ANSWER_QUOTES: Record<string, string> = { '"': '"', "'": "'", "\u201c": "\u201d" };

/**
 * `text` (a whole answer, or a fence's content) as one quoted string, closed or cut off: the string
 * inside, decoded by the reader a stream runs over the same text as it arrives (one rule for both modes).
 */
export function readQuoted(text: string): { value: string; complete: boolean } | undefined {
  const first = text.search(/\S/);
  if (first < 0 || ANSWER_QUOTES[text[first]!] === undefined) return undefined;
  const quoted = new QuotedAnswer();
  quoted.push(text);
  if (quoted.state !== "open" && quoted.state !== "closed") return undefined;
  return { value: quoted.value, complete: quoted.state === "closed" };
}
