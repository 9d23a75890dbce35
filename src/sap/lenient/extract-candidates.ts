import { QuotedAnswer } from "../kinds/primitive/quoted-answer.js";
import type { WorkCounter } from "../work-counter.js";
import { fenceIsTheAnswer } from "./fence-is-the-answer.js";
import { beginsLine, opensFence } from "./fence-rule.js";
import { findFences } from "./find-fences.js";
import { FixingParser, type ParsedRoot } from "./fixing-parser.js";
import { type JsonishNode, nodeFromJson, stringNode } from "./jsonish-node.js";
import { parseJsonInString, parseStrictJson, type StrictJson } from "./parse-strict-json.js";
import { type LabelReading, readFenceLabelLines, readLabelReading } from "./read-label-lines.js";
import { sectionsOverRecords } from "./read-label-records.js";
import { readSectionsWithBlocks, type TextRange } from "./read-sections.js";
import { afterReasoning } from "./reasoning-blocks.js";
import type { SectionNames } from "./section-names.js";

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
 * Text → all plausible candidates, never committing early: valid JSON (fast path, then nothing else is
 * needed), else every fenced block, every balanced container in the prose around them, an array of all
 * object candidates when there are several, the answer read as sections named by the target's fields
 * (`names`, when it is a class), and finally the text itself. `work` counts the parsing steps and fence
 * searches (see `WorkCounter`).
 */
export function extractCandidates(
  text: string,
  strict: StrictJson | undefined = parseStrictJson(text),
  work?: WorkCounter,
  names?: SectionNames,
): Candidate[] {
  const answerStart = strict === undefined ? afterReasoning(text) : undefined;
  if (answerStart !== undefined) {
    // The answer after the reasoning comes first; the whole text stays as a fallback reading.
    const after = text.slice(answerStart);
    const answer = readCandidates(after, parseStrictJson(after), answerStart, work, names);
    // The reasoning before it is text around the value (flagged `FromProse`, as any preamble is).
    for (const candidate of answer) {
      if (candidate.origin === "json" || candidate.origin === "prose") candidate.surrounded = true;
    }
    const whole = readCandidates(text, undefined, 0, work, names);
    for (const candidate of whole) candidate.reasoning = true;
    return [...answer, ...whole];
  }
  return readCandidates(text, strict, 0, work, names);
}

/**
 * The candidates of `text`, which starts at `offset` in the answer: orders, spans and node offsets are
 * the answer's.
 */
function readCandidates(
  text: string,
  strict: StrictJson | undefined,
  offset: number,
  work: WorkCounter | undefined,
  names?: SectionNames,
): Candidate[] {
  const first = text.search(/\S/);
  const last = text.length - (text.length - text.trimEnd().length);
  const whole = { start: offset + Math.max(first, 0), end: offset + last };
  if (strict !== undefined) {
    const json = jsonCandidate(strict, text, offset, {
      origin: "json",
      repairs: [],
      order: offset,
      span: whole,
    });
    // An answer that is one JSON string is that string, not text with quotes and escapes in it (as a
    // stream reads it, and as a quoted answer JSON would not take is read: `quotedAnswer`).
    if (typeof strict.value === "string") {
      json.wholeString = true;
      const inner = parseJsonInString(strict.value);
      if (inner === undefined) return [json];
      // The string holds the answer as JSON text: its value is a reading too.
      const decoded = jsonCandidate(inner, strict.value, offset, {
        origin: "json",
        repairs: ["JSON inside a JSON string"],
        order: offset + 1,
        span: whole,
        wholeString: true,
      });
      return [json, decoded];
    }
    return [json, { node: stringNode(text), origin: "text", repairs: [], order: offset + 1, span: whole }];
  }
  const candidates: Candidate[] = [];
  // Sections named by the target's fields (read first: the YAML blocks they read hold flow lists and
  // maps that are parts of their values, not readings of their own; the candidate is listed below).
  // (No quick test of the whole text first: reading it costs about as much as a search for the keys
  // would, since the lines of fences and JSON values are passed by unread.)
  const read = names === undefined ? undefined : readSectionsWithBlocks(text, names);
  const inYaml = inYamlBlocks(offset, read?.yamlBlocks);
  // Some root was read in the prose (kept or not): the answer has JSON in it.
  let rooted = false;
  let proseStart = 0;
  // The answer was cut off inside a fence: then the whole text is cut off too (see the text candidate).
  let endsInFence = false;
  const prose = readProse(text, offset, work);
  const fences = findFences(text, work, prose.opens, offset);
  const fenceInProse =
    fences.length > 1 || (fences.length === 1 && !fenceIsTheAnswer(text, fences[0]!.start, fences[0]!.end));
  const fencesFrom = candidates.length;
  for (const fence of fences) {
    endsInFence = !fence.closed;
    if (addProse(candidates, prose, text, proseStart, fence.start, first, last, offset, inYaml))
      rooted = true;
    proseStart = fence.end;
    const contentStart = offset + fence.contentStart;
    const contentSpan = { start: contentStart, end: contentStart + fence.content.length };
    // Read once, by the fence finder, for its closing rule and for these candidates alike.
    const { strict: strictContent, roots } = fence.reading;
    if (strictContent !== undefined) {
      candidates.push(
        jsonCandidate(strictContent, fence.content, contentStart, {
          origin: "fence",
          repairs: [],
          order: offset + fence.start,
          fenceTag: fence.tag,
          span: contentSpan,
        }),
      );
      // The fence's text as written too, as any fence offers it (`12` for a string is "12", and a JSON
      // object the object as written, not the whole answer with its backticks), as a stream reads it;
      // a JSON string is only the string inside its quotes.
      if (typeof strictContent.value !== "string") {
        candidates.push({
          node: stringNode(fence.content.trim(), fence.closed),
          origin: "text",
          repairs: [],
          order: offset + fence.start,
          fenceTag: fence.tag,
          span: contentSpan,
        });
      }
      continue;
    }
    for (const candidate of candidatesFromRoots(roots, "fence")) {
      if (!fence.closed) candidate.repairs = [...candidate.repairs, "unclosed fence"];
      candidate.fenceTag = fence.tag;
      candidates.push(candidate);
    }
    const labels = readFenceLabelLines(fence.content, roots.length);
    if (labels) {
      const fields = {
        origin: "fence" as const,
        order: offset + fence.start,
        fenceTag: fence.tag,
        span: contentSpan,
      };
      candidates.push(...labelCandidates(labels, fields));
    }
    if (fence.content.trim() !== "") {
      const content = fence.content.trim();
      // A fence holding one quoted string (cut off, or one JSON would not take) is that string, as a
      // whole answer is: the quotes are syntax (```"OFF" is OFF), as when the content is valid JSON. A
      // quote still open when the fence closed opened no string: the content is text that starts with it.
      const quoted = roots.length === 0 ? readQuoted(fence.content) : undefined;
      if (quoted && (quoted.complete || !fence.closed)) {
        const start = contentStart + fence.content.search(/\S/);
        const node: JsonishNode = {
          ...stringNode(quoted.value, quoted.complete),
          start,
          end: start + content.length,
        };
        const repairs = quoted.complete ? ["quoted answer JSON would not take"] : ["unclosed string"];
        candidates.push({
          node,
          origin: "fence",
          repairs: fence.closed ? repairs : [...repairs, "unclosed fence"],
          order: offset + fence.start,
          fenceTag: fence.tag,
          span: contentSpan,
        });
        continue;
      }
      candidates.push({
        node: stringNode(content, fence.closed),
        origin: "text",
        repairs: [],
        order: offset + fence.start,
        fenceTag: fence.tag,
        span: contentSpan,
      });
    }
  }
  if (fenceInProse)
    for (let index = fencesFrom; index < candidates.length; index++) {
      if (candidates[index]!.fenceTag !== undefined) candidates[index]!.fenceInProse = true;
    }
  if (addProse(candidates, prose, text, proseStart, text.length, first, last, offset, inYaml)) rooted = true;
  // No JSON anywhere (not even in a YAML block): the answer may be `key: value` lines.
  let labels: LabelReading | undefined;
  if (candidates.length === 0 && !rooted) {
    labels = readLabelReading(text);
    if (labels) candidates.push(...labelCandidates(labels, { origin: "prose", order: offset, span: whole }));
  }
  const literal = bareLiteral(text, offset);
  if (literal) candidates.push({ ...literal, span: whole });
  const quoted = quotedAnswer(text, first, last, offset);
  if (quoted) candidates.push(quoted);
  // Asked without building a valid-JSON candidate's nodes (most answers never need them).
  const objects = candidates.filter((candidate) => isObjectCandidate(candidate) && !candidate.parent);
  if (objects.length > 1) {
    let node: JsonishNode | undefined;
    candidates.push({
      get node() {
        node ??= { kind: "array", items: objects.map((candidate) => candidate.node), complete: true };
        return node;
      },
      origin: "combined",
      repairs: ["several objects gathered into a list"],
      order: offset + text.length,
      span: whole,
    });
  }
  // The sections reading (not gathered with other objects: it is the whole answer).
  const sections = read?.node;
  if (sections && !sectionsOverRecords(sections, labels)) {
    // (Before the label lines' reading of the same lines: it wins a tie, in streams too.)
    const order = offset - 1;
    candidates.push({ node: sections, origin: "prose", repairs: [SECTIONS_REPAIR], order, span: whole });
  }
  const order = offset + text.length + 1;
  // An answer that is one quoted string (closed or cut off) is that string, not text with a quote in
  // front (as a stream reads it).
  // A text that ends inside a fence is as cut off as the fence's content: it does not beat that content
  // for being complete (`⏎```⏎the summ` is `the summ`, as a stream shows it, not the backticks too).
  if (!quoted)
    candidates.push({
      node: stringNode(text, !endsInFence),
      origin: "text",
      repairs: [],
      order,
      span: whole,
    });
  if (work) work.steps += candidates.length;
  return candidates;
}

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

/** The prose between fences (`readProse`). */
interface ProseReader {
  /** Whether the run of backticks at `open` opens a fence (`findFences`' `opens`). */
  opens(open: number, run: number, proseStart: number): boolean;
  /** The roots of the prose `text[start, end)` (offsets in the answer). */
  roots(start: number, end: number): ParsedRoot[];
}

/**
 * The prose between fences, read by the fixing parser once, for the fence rule's opening decision and
 * for the prose candidates alike. `opens` is what the opening decision asks (`opensFence` in
 * `fence-rule.ts`, which the stream's `AnswerScanner` asks too): the prose before a run of backticks.
 * Asked in increasing order of `open`, so the prose parser only reads on (a new one for each prose
 * region) and each character is read once; a region's parser is kept when its fence opens, and `roots`
 * then ends it rather than reading the region again.
 */
function readProse(text: string, offset: number, work: WorkCounter | undefined): ProseReader {
  let parser: FixingParser | undefined;
  let parserStart = -1;
  let parsed = 0;
  // The parser of each region that ended at a fence's opening run, by the region's start.
  const regions = new Map<number, { end: number; parser: FixingParser }>();
  return {
    opens(open, run, proseStart) {
      if (parser === undefined || parserStart !== proseStart) {
        parser = new FixingParser(offset + proseStart);
        parser.work = work;
        parserStart = proseStart;
        parsed = proseStart;
      }
      parser.push(text.slice(parsed, open));
      parsed = open;
      if (work) work.steps++;
      // (The closing backticks of a fence before count as text on their line, as in a stream.)
      if (opensFence(beginsLine(text, open), parser)) {
        regions.set(proseStart, { end: open, parser });
        return true;
      }
      // The backticks are text of the value: the parser reads them as such, as a stream's does.
      parser.push(text.slice(open, open + run));
      parsed = open + run;
      return false;
    },
    roots(start, end) {
      const region = regions.get(start);
      if (region !== undefined && region.end === end) return region.parser.end();
      return parseRoots(text.slice(start, end), offset + start, work);
    },
  };
}

/**
 * The prose candidates of `text[start, end)`, but for those on the lines of a YAML block (`inYaml`).
 * Returns whether any root was read there, kept or not (`rooted`: some JSON in the text).
 */
function addProse(
  candidates: Candidate[],
  prose: ProseReader,
  text: string,
  start: number,
  end: number,
  first: number,
  last: number,
  offset: number,
  inYaml: ((span: { start: number; end: number }) => boolean) | undefined,
): boolean {
  if (end <= start) return false;
  const segment = text.slice(start, end);
  if (!segment.includes("{") && !segment.includes("[")) return false;
  const roots = prose.roots(start, end);
  for (const candidate of candidatesFromRoots(roots, "prose")) {
    const root = candidate.span!;
    if (inYaml?.(root)) continue;
    candidate.surrounded = root.start > offset + first || root.end < offset + last;
    candidates.push(candidate);
  }
  return roots.length > 0;
}

/**
 * Whether a root's span (offsets in the answer; `text` starts at `offset` in it) lies in one of the YAML
 * blocks a sections reading of `text` read (`Sections.yamlBlocks`): such a flow list or map is a part of
 * that block's value, and never a reading of the whole answer (each one, a candidate of its own, cost an
 * answer of many items a coercion each). Undefined when there are no blocks.
 */
export function inYamlBlocks(
  offset: number,
  blocks: readonly TextRange[] | undefined,
): ((span: { start: number; end: number }) => boolean) | undefined {
  if (blocks === undefined || blocks.length === 0) return undefined;
  return (span) => {
    const start = span.start - offset;
    const end = span.end - offset;
    return blocks.some((block) => start >= block.start && end <= block.end);
  };
}

/** The roots of `text`, which starts at `offset` in the answer (their offsets are the answer's). */
function parseRoots(text: string, offset: number, work?: WorkCounter): ParsedRoot[] {
  const parser = new FixingParser(offset);
  parser.work = work;
  parser.push(text);
  return parser.end();
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
  return parseRoots(source, offset)[0]!.node;
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
 * A whole answer that is one quoted string JSON would not take (a raw line break, single or smart quotes,
 * an unescaped inner quote): the string inside, read by the fixing parser with its usual repairs. The
 * quotes are syntax, not part of the value, as they are when the same answer is valid JSON.
 */
function quotedAnswer(text: string, first: number, last: number, offset: number): Candidate | undefined {
  const quoted = readQuoted(text);
  if (quoted === undefined) return undefined;
  const complete = quoted.complete;
  const node: JsonishNode = { ...stringNode(quoted.value, complete), start: first, end: last };
  const span = { start: offset + first, end: offset + last };
  const repairs = complete ? ["quoted answer JSON would not take"] : ["unclosed string"];
  return { node, origin: "prose", repairs, order: offset + first, span, wholeString: true };
}

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
