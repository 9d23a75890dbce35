import type { WorkCounter } from "../work-counter.js";
import { findFences } from "./find-fences.js";
import { FixingParser, fixingParse, type ParsedRoot } from "./fixing-parser.js";
import { type JsonishNode, nodeFromJson, stringNode } from "./jsonish-node.js";
import { readLabelLines } from "./read-label-lines.js";

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
}

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
 * object candidates when there are several, and finally the text itself. `work` counts the parsing
 * steps and fence searches (see `WorkCounter`).
 */
export function extractCandidates(
  text: string,
  strict: StrictJson | undefined = parseStrictJson(text),
  work?: WorkCounter,
): Candidate[] {
  if (strict !== undefined) {
    return [
      jsonCandidate(strict, text, { origin: "json", repairs: [], order: 0 }),
      { node: stringNode(text), origin: "text", repairs: [], order: 1 },
    ];
  }
  const candidates: Candidate[] = [];
  const first = text.search(/\S/);
  const last = text.length - (text.length - text.trimEnd().length);
  let proseStart = 0;
  // Fence contents are read once: to choose closing lines, then for candidates.
  const readContents = new Map<string, { strict: StrictJson | undefined; roots: ParsedRoot[] }>();
  const contentOf = (content: string) => {
    let read = readContents.get(content);
    if (!read) {
      const strict = parseStrictJson(content);
      read = { strict, roots: strict === undefined ? parseRoots(content, work) : [] };
      readContents.set(content, read);
    }
    return read;
  };
  const isWhole = (content: string) => contentOf(content).roots.at(-1)?.node.complete !== false;
  for (const fence of findFences(text, isWhole, work)) {
    addProse(candidates, text, proseStart, fence.start, first, last, work);
    proseStart = fence.end;
    const { strict: strictContent, roots } = contentOf(fence.content);
    if (strictContent !== undefined) {
      candidates.push(
        jsonCandidate(strictContent, fence.content, {
          origin: "fence",
          repairs: [],
          order: fence.start,
          fenceTag: fence.tag,
        }),
      );
      continue;
    }
    for (const candidate of candidatesFromRoots(roots, "fence", fence.start)) {
      if (!fence.closed) candidate.repairs = [...candidate.repairs, "unclosed fence"];
      candidate.fenceTag = fence.tag;
      candidates.push(candidate);
    }
    const labels = roots.length === 0 ? readLabelLines(fence.content) : undefined;
    if (labels) {
      candidates.push({
        node: labels,
        origin: "fence",
        repairs: ["key: value lines"],
        order: fence.start,
        fenceTag: fence.tag,
      });
    }
    if (roots.length === 0 && fence.content.trim() !== "") {
      const content = fence.content.trim();
      candidates.push({
        node: stringNode(content, fence.closed),
        origin: "text",
        repairs: [],
        order: fence.start,
        fenceTag: fence.tag,
      });
    }
  }
  addProse(candidates, text, proseStart, text.length, first, last, work);
  // No JSON anywhere: the answer may be `key: value` lines.
  if (candidates.length === 0) {
    const labels = readLabelLines(text);
    if (labels) candidates.push({ node: labels, origin: "prose", repairs: ["key: value lines"], order: 0 });
  }
  const literal = bareLiteral(text);
  if (literal) candidates.push(literal);
  const objects = candidates.filter((candidate) => candidate.node.kind === "object" && !candidate.parent);
  if (objects.length > 1) {
    candidates.push({
      node: { kind: "array", items: objects.map((candidate) => candidate.node), complete: true },
      origin: "combined",
      repairs: ["several objects gathered into a list"],
      order: text.length,
    });
  }
  candidates.push({ node: stringNode(text), origin: "text", repairs: [], order: text.length + 1 });
  if (work) work.steps += candidates.length;
  return candidates;
}

function addProse(
  candidates: Candidate[],
  text: string,
  start: number,
  end: number,
  first: number,
  last: number,
  work: WorkCounter | undefined,
): void {
  if (end <= start) return;
  const segment = text.slice(start, end);
  if (!segment.includes("{") && !segment.includes("[")) return;
  for (const candidate of candidatesFromRoots(parseRoots(segment, work), "prose", start)) {
    const root = candidate.span!;
    candidate.surrounded = root.start > first || root.end < last;
    candidates.push(candidate);
  }
}

function parseRoots(text: string, work: WorkCounter | undefined): ParsedRoot[] {
  const parser = new FixingParser();
  parser.work = work;
  parser.push(text);
  return parser.end();
}

/**
 * One candidate per root; a root that never closed (a stray bracket, or truncation) also offers the
 * complete containers directly inside it, since the stray bracket may be the only thing wrong.
 */
function candidatesFromRoots(roots: ParsedRoot[], origin: "fence" | "prose", base: number): Candidate[] {
  const found: Candidate[] = [];
  for (const root of roots) {
    const span = { start: base + root.start, end: base + root.end };
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

/**
 * A candidate from valid JSON whose node tree is built only when something asks for it. Numbers keep the
 * text they were written as (`1.50` read as a string is "1.50", as a stream shows it): when the JSON has
 * a number `JSON.parse` would respell, the tree comes from the fixing parser, which keeps it.
 */
function jsonCandidate(json: StrictJson, text: string, fields: Omit<Candidate, "node" | "json">): Candidate {
  let node: JsonishNode | undefined;
  return {
    ...fields,
    json,
    get node() {
      node ??= RESPELLED_NUMBER.test(text) ? writtenNode(text, json) : nodeFromJson(json.value);
      return node;
    },
  };
}

/**
 * A number `String(JSON.parse(…))` does not give back as written: a trailing zero in the fraction, an
 * exponent, a leading zero of the fraction's integer part written as `-0`, or more digits than a double
 * keeps. May also match inside a string (then the tree is only built the slower way, the same tree).
 */
const RESPELLED_NUMBER = /\d\.\d*0(?!\d)|\d[eE]|\d{16}|-0(?![.\d])/;

function writtenNode(text: string, json: StrictJson): JsonishNode {
  const roots = fixingParse(text);
  return roots.length === 1 && roots[0]!.node.complete ? roots[0]!.node : nodeFromJson(json.value);
}

/** A whole answer that is one Python/JSON literal in another spelling (`None`, `True`, `FALSE`). */
function bareLiteral(text: string): Candidate | undefined {
  if (text.length > 16) return undefined;
  const word = text.trim();
  const lower = word.toLowerCase();
  let node: JsonishNode;
  if (lower === "none" || lower === "null") node = { kind: "null", complete: true };
  else if (lower === "true" || lower === "false")
    node = { kind: "bool", value: lower === "true", complete: true };
  else return undefined;
  return { node, origin: "prose", repairs: ["python literal"], order: 0 };
}

/** A text that is valid JSON, parsed. */
export interface StrictJson {
  value: unknown;
}

/**
 * The text parsed as strict JSON, or `undefined`. Only texts that can start and end a JSON value are
 * tried (exceptions are slow).
 */
export function parseStrictJson(text: string): StrictJson | undefined {
  const first = text.trimStart()[0];
  if (first === undefined || !/[[{"\d\-tfn]/.test(first)) return undefined;
  // Cheap pre-check on the last character too: `{…` must end with `}`, `[…` with `]`, `"…` with `"`.
  const last = text.trimEnd().at(-1);
  const closer = first === "{" ? "}" : first === "[" ? "]" : first === '"' ? '"' : undefined;
  if (closer !== undefined ? last !== closer : !/[\da-z]/.test(last ?? "")) return undefined;
  try {
    // Trimmed: JSON allows only four whitespace characters around a value; a byte-order mark or a
    // non-breaking space around valid JSON should still take the fast path.
    return { value: JSON.parse(text.trim()) };
  } catch {
    return undefined;
  }
}
