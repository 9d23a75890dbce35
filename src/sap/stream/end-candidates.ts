import { type Candidate, GATHERED_REPAIR, SECTIONS_REPAIR } from "../choose/candidate.js";
import { QuotedAnswer } from "../kinds/primitive/quoted-answer.js";
import { fenceIsTheAnswer } from "../lenient/fence-is-the-answer.js";
import { FixingParser, type ParsedRoot } from "../lenient/fixing-parser.js";
import {
  type ArrayNode,
  type JsonishNode,
  nodeFromJson,
  type ObjectNode,
  stringNode,
} from "../lenient/jsonish-node.js";
import { parseJsonInString, parseStrictJson, type StrictJson } from "../lenient/parse-strict-json.js";
import { type LabelReading, readLabelReading } from "../lenient/read-label-lines.js";
import { sectionsOverRecords } from "../lenient/read-label-records.js";
import type { TextRange } from "../lenient/read-sections.js";
import type { AnswerRegion } from "./answer-region.js";

/** What a stream's reader read, once its text has ended (see `PartialReader.end`). */
export interface EndSource {
  /** The text the reader was given (the answer, or the part of it after reasoning blocks). */
  text: string;
  /** Where `text` starts in the answer. */
  offset: number;
  /** The scanner's regions, ended: every fence decided, every region's fixing parser ended. */
  regions: readonly AnswerRegion[];
  /** The whole text as `key: value` lines (ended), or `unread` when the reader stopped reading it so. */
  labels: LabelReading | undefined | "unread";
  /** The whole text read as one quoted string. */
  quoted: QuotedAnswer;
  /** The whole text read as sections named by the target's fields (ended), when a declared one opened. */
  sections: ObjectNode | ArrayNode | undefined;
  /** Where the YAML blocks the sections reading read are in `text` (`Sections.yamlBlocks`). */
  yamlBlocks: readonly TextRange[] | undefined;
}

/**
 * Counts what `end()` read from the text again instead of from the stream's own state: the whole answer
 * as label lines when the stream had stopped reading it so (an answer whose fences hold nothing), the
 * nodes of a whole answer of valid JSON not read as one region, a reasoning split the stream did not
 * make. For the fuzz run and the measurement script; each should stay rare.
 */
export const endRereads = { labelLines: 0, jsonNodes: 0, reasoning: 0 };

/**
 * The readings the end of a read chooses from (`chooseReading`), built from what the reader read: its
 * regions' fences and roots, its label lines, its sections and its quoted answer, so the end parses
 * nothing again. In order: the answer as valid JSON (then only that and its text), else each fence and
 * each container in the prose in answer order, the label lines, a bare literal, the quoted answer, all
 * objects gathered into a list, the sections, and the text itself. `bases` receives where each
 * candidate's node offsets count from (a region's roots count from the region's start). `parseValue`
 * and a stream's `finish()` both end here (`PartialReader.end`).
 */
export function candidatesAtEnd(
  source: EndSource,
  strict: StrictJson | undefined,
  bases: Map<Candidate, number | undefined>,
): Candidate[] {
  const { text, offset, regions } = source;
  const first = text.search(/\S/);
  const last = text.length - (text.length - text.trimEnd().length);
  const whole = { start: offset + Math.max(first, 0), end: offset + last };
  if (strict !== undefined) return strictCandidates(source, strict, whole, bases);
  const candidates: Candidate[] = [];
  // The answer was cut off inside a fence: then the whole text is cut off too (see the text candidate).
  let endsInFence = false;
  const fenceInProse = isFenceInProse(text, regions);
  const inYaml = inYamlBlocks(source.yamlBlocks);
  // Some root was read in the prose (kept or not): the answer has JSON in it.
  let rooted = false;
  for (const region of regions) {
    if (region.kind === "prose") {
      const base = offset + region.start;
      if (region.roots.length > 0) rooted = true;
      // (A YAML block's roots are passed before they make candidates: a block of many items has as many.)
      const roots = inYaml ? region.roots.filter((root) => !inYaml(root, region.start)) : region.roots;
      for (const candidate of shifted(candidatesFromRoots(roots, "prose"), base, bases)) {
        const span = candidate.span!;
        candidate.surrounded = span.start > offset + first || span.end < offset + last;
        candidates.push(candidate);
      }
      continue;
    }
    endsInFence = !region.closed;
    const from = candidates.length;
    fenceCandidates(source, region, candidates, bases);
    if (fenceInProse)
      for (let index = from; index < candidates.length; index++) candidates[index]!.fenceInProse = true;
  }
  // No JSON anywhere (not even in a YAML block): the answer may be `key: value` lines.
  let labels: LabelReading | undefined;
  if (candidates.length === 0 && !rooted) {
    const read = source.labels;
    if (read === "unread") endRereads.labelLines++;
    labels = read === "unread" ? readLabelReading(text) : read;
    if (labels) candidates.push(...labelCandidates(labels, { origin: "prose", order: offset, span: whole }));
  }
  const literal = bareLiteral(text, offset);
  if (literal) candidates.push({ ...literal, span: whole });
  const quoted = quotedAnswer(source.quoted, first, last, offset);
  if (quoted) candidates.push(quoted);
  const objects = candidates.filter((candidate) => isObjectCandidate(candidate) && !candidate.parent);
  if (objects.length > 1) {
    let node: JsonishNode | undefined;
    const combined: Candidate = {
      get node() {
        node ??= { kind: "array", items: objects.map((candidate) => candidate.node), complete: true };
        return node;
      },
      origin: "combined",
      repairs: [GATHERED_REPAIR],
      order: offset + text.length,
      span: whole,
    };
    // The objects' nodes count from one place only when they come from one region.
    const from = new Set(objects.map((candidate) => baseOf(candidate, bases)));
    bases.set(combined, from.size === 1 ? [...from][0] : undefined);
    candidates.push(combined);
  }
  // Sections named by the target's fields (before the label lines' reading of the same lines: it wins a
  // tie).
  if (source.sections && !sectionsOverRecords(source.sections, labels)) {
    const order = offset - 1;
    candidates.push({
      node: source.sections,
      origin: "prose",
      repairs: [SECTIONS_REPAIR],
      order,
      span: whole,
    });
  }
  if (!quoted) {
    const order = offset + text.length + 1;
    candidates.push({
      node: stringNode(text, !endsInFence),
      origin: "text",
      repairs: [],
      order,
      span: whole,
    });
  }
  return candidates;
}

function baseOf(candidate: Candidate, bases: Map<Candidate, number | undefined>): number | undefined {
  return bases.has(candidate) ? bases.get(candidate) : 0;
}

/** Candidates read from a region's roots, whose offsets count from `base`: spans and orders the answer's. */
function shifted(
  candidates: Candidate[],
  base: number,
  bases: Map<Candidate, number | undefined>,
): Candidate[] {
  for (const candidate of candidates) {
    // (A root's children share its span object: each gets a new one.)
    const span = { start: base + candidate.span!.start, end: base + candidate.span!.end };
    candidate.span = span;
    candidate.order = span.start;
    bases.set(candidate, base);
  }
  return candidates;
}

/** The answer is valid JSON: its value, read from the stream's one root when it is a container. */
function strictCandidates(
  source: EndSource,
  strict: StrictJson,
  whole: { start: number; end: number },
  bases: Map<Candidate, number | undefined>,
): Candidate[] {
  const { text, offset, regions } = source;
  const fields = { origin: "json" as const, repairs: [], order: offset, span: whole };
  const json = containerCandidate(
    strict,
    regions.length === 1 ? regions[0]! : undefined,
    fields,
    offset,
    bases,
  );
  const candidate = json ?? jsonCandidate(strict, text, offset, fields);
  if (json === undefined && typeof strict.value === "object" && strict.value !== null) endRereads.jsonNodes++;
  if (typeof strict.value === "string") {
    candidate.wholeString = true;
    const inner = parseJsonInString(strict.value);
    if (inner === undefined) return [candidate];
    const decoded = jsonCandidate(inner, strict.value, offset, {
      origin: "json",
      repairs: ["JSON inside a JSON string"],
      order: offset + 1,
      span: whole,
      wholeString: true,
    });
    return [candidate, decoded];
  }
  return [candidate, { node: stringNode(text), origin: "text", repairs: [], order: offset + 1, span: whole }];
}

/**
 * A candidate for valid JSON holding a container, whose node is the one root the stream's region read
 * (counting from `base`); undefined when the value is no container or the region holds more.
 */
function containerCandidate(
  strict: StrictJson,
  region: AnswerRegion | undefined,
  fields: Omit<Candidate, "node" | "json">,
  base: number,
  bases: Map<Candidate, number | undefined>,
): Candidate | undefined {
  if (typeof strict.value !== "object" || strict.value === null || region === undefined) return undefined;
  const roots = region.roots;
  if (roots.length !== 1) return undefined;
  const root = roots[0]!;
  const candidate: Candidate = {
    ...fields,
    json: strict,
    get node() {
      return root.node;
    },
  };
  bases.set(candidate, base);
  return candidate;
}

/** Whether the answer's fences are only part of it (`fenceIsTheAnswer`). */
function isFenceInProse(text: string, regions: readonly AnswerRegion[]): boolean {
  let fence: number | undefined;
  for (let index = 0; index < regions.length; index++) {
    if (regions[index]!.kind !== "fence") continue;
    if (fence !== undefined) return true;
    fence = index;
  }
  if (fence === undefined) return false;
  const end = regions[fence + 1]?.start ?? text.length;
  return !fenceIsTheAnswer(text, regions[fence]!.start, end);
}

/** A fence's candidates: its JSON (or its roots), and its text. */
function fenceCandidates(
  source: EndSource,
  region: AnswerRegion,
  candidates: Candidate[],
  bases: Map<Candidate, number | undefined>,
): void {
  const { text, offset } = source;
  const content = text.slice(region.contentStart, region.contentEnd);
  const contentStart = offset + region.contentStart;
  const contentSpan = { start: contentStart, end: contentStart + content.length };
  const order = offset + region.start;
  const fenceTag = region.tag;
  // (A fence given its content whole was read as JSON then: not again.)
  const read = region.strictContent;
  const strict =
    read !== undefined && region.contentLength === content.length ? read.strict : parseStrictJson(content);
  if (strict !== undefined) {
    const fields = { origin: "fence" as const, repairs: [], order, fenceTag, span: contentSpan };
    const json = containerCandidate(strict, region, fields, contentStart, bases);
    candidates.push(json ?? jsonCandidate(strict, content, contentStart, fields));
    // The fence's text as written too; a JSON string is only the string inside its quotes.
    if (typeof strict.value !== "string") {
      const node = stringNode(content.trim(), region.closed);
      candidates.push({ node, origin: "text", repairs: [], order, fenceTag, span: contentSpan });
    }
    return;
  }
  const roots = region.roots;
  for (const candidate of shifted(candidatesFromRoots(roots, "fence"), contentStart, bases)) {
    if (!region.closed) candidate.repairs = [...candidate.repairs, "unclosed fence"];
    candidate.fenceTag = fenceTag;
    candidates.push(candidate);
  }
  const labels = region.labels?.reading();
  if (labels)
    candidates.push(...labelCandidates(labels, { origin: "fence", order, fenceTag, span: contentSpan }));
  const trimmed = content.trim();
  if (trimmed === "") return;
  // A fence holding one quoted string is that string, as a whole answer that is one is.
  const quoted = roots.length === 0 ? readQuoted(content) : undefined;
  if (quoted && (quoted.complete || !region.closed)) {
    const start = contentStart + content.search(/\S/);
    const fields = { origin: "fence" as const, order, fenceTag, span: contentSpan };
    candidates.push(quotedCandidate(quoted, start, start + trimmed.length, fields, !region.closed));
    return;
  }
  const node = stringNode(trimmed, region.closed);
  candidates.push({ node, origin: "text", repairs: [], order, fenceTag, span: contentSpan });
}

/**
 * A whole answer that is one quoted string JSON would not take (a raw line break, single or smart quotes,
 * an unescaped inner quote): the string inside, as the reader decoded it (`QuotedAnswer`, the fixing
 * parser's usual repairs). The quotes are syntax, not part of the value, as they are when the same answer
 * is valid JSON.
 */
function quotedAnswer(
  quoted: QuotedAnswer,
  first: number,
  last: number,
  offset: number,
): Candidate | undefined {
  if (quoted.state !== "open" && quoted.state !== "closed") return undefined;
  const span = { start: offset + first, end: offset + last };
  const fields = { origin: "prose" as const, order: offset + first, span, wholeString: true };
  return quotedCandidate({ value: quoted.value, complete: quoted.state === "closed" }, first, last, fields);
}

/**
 * A quoted string JSON would not take (a whole answer, or a fence's content), read as the string inside
 * its quotes, closed or cut off; its node spans `start` to `end`.
 */
function quotedCandidate(
  quoted: { value: string; complete: boolean },
  start: number,
  end: number,
  fields: Omit<Candidate, "node" | "repairs">,
  unclosedFence = false,
): Candidate {
  const repairs = quoted.complete ? ["quoted answer JSON would not take"] : ["unclosed string"];
  if (unclosedFence) repairs.push("unclosed fence");
  return { ...fields, node: { ...stringNode(quoted.value, quoted.complete), start, end }, repairs };
}

/**
 * The candidates of label lines (`reading`), one rule for final mode and a stream's end: the object (or
 * list of records), flagged where a key written again lost a record (`overwritten`), then the records a
 * first key written again starts (`LabelLines.repeats`), which win a tie as a finer reading of the same
 * lines. `fields`: where the lines are (origin, order, span, fence tag).
 */
function labelCandidates(
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
function inYamlBlocks(
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
function candidatesFromRoots(roots: ParsedRoot[], origin: "fence" | "prose"): Candidate[] {
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

function isObjectCandidate(candidate: Candidate): boolean {
  if (candidate.json === undefined) return candidate.node.kind === "object";
  const value = candidate.json.value;
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A candidate from valid JSON whose node tree is built only when something asks for it. */
function jsonCandidate(
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
function bareLiteral(text: string, offset: number): Candidate | undefined {
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
function readQuoted(text: string): { value: string; complete: boolean } | undefined {
  const first = text.search(/\S/);
  if (first < 0 || ANSWER_QUOTES[text[first]!] === undefined) return undefined;
  const quoted = new QuotedAnswer();
  quoted.push(text);
  if (quoted.state !== "open" && quoted.state !== "closed") return undefined;
  return { value: quoted.value, complete: quoted.state === "closed" };
}
