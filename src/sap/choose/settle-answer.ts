import type { IrIndex, Type } from "../../ir/index.js";
import {
  addFlag,
  type CoerceIssue,
  type CoerceResult,
  type CoerceSuccess,
  describeNode,
  pathDepth,
} from "../coerce/coerce-result.js";
import { coercers } from "../coerce/coercer-table.js";
import { createCoerceContext, TooDeep } from "../coerce/create-coerce-context.js";
import { findConstraint } from "../coerce/find-constraint.js";
import { gatheredScore } from "../coerce/gathered-score.js";
import { NOT_EXACT, readExact } from "../coerce/read-exact.js";
import { placeFlags, scoreFlags } from "../flags.js";
import type { FinalAnswerMarker } from "../lenient/final-answer-marker.js";
import { stringNode } from "../lenient/jsonish-node.js";
import { parseStrictJson, type StrictJson } from "../lenient/parse-strict-json.js";
import type { ParseOptions, ParseResult } from "../parse-value.js";
import { SapConfigurationError, SapParseError } from "../sap-parse-error.js";
import { structureBeatsText } from "../structure-beats-text.js";
import { type Candidate, ORIGIN_RANK, originFlags, SECTIONS_REPAIR } from "./candidate.js";
import { type Placing, ranksAbove } from "./rank-readings.js";

/**
 * Where the node offsets of a candidate count from in the answer (0: they are the answer's own;
 * undefined: its flags point at the whole reading). A region's roots count from where
 * the region starts.
 */
export type CandidateBase = (candidate: Candidate) => number | undefined;

/** What a look at the whole answer decides before any reading: see `quickAnswer`. */
export interface QuickAnswer {
  /** The answer is valid JSON that exactly is a value of the type: no reading needed, no flags. */
  result?: ParseResult;
  /** The whole answer as JSON, when it is valid JSON. */
  strict: StrictJson | undefined;
}

/**
 * What the end of every read starts with: a type with `@check`/`@assert` needs an evaluator (else a
 * `SapConfigurationError`), and an answer of valid JSON that exactly is a value of the type is that value
 * (the fast path: `JSON.parse` and a strict walk, no readings).
 */
export function quickAnswer(text: string, type: Type, index: IrIndex, options: ParseOptions): QuickAnswer {
  if (!options.constraintEvaluator) {
    const where = findConstraint(type, index);
    if (where !== undefined) {
      throw new SapConfigurationError(
        "constraint-evaluator-missing",
        `${where} has @check/@assert constraints but no constraintEvaluator was given. ` +
          "Pass { constraintEvaluator } (the prompt room's evaluateConstraint) to parseValue.",
      );
    }
  }
  const strict = parseStrictJson(text);
  if (strict !== undefined) {
    const exact = readExactOrNothing(type, strict.value, index);
    if (exact !== NOT_EXACT) return { result: { value: exact, flags: [], score: 0, checks: [] }, strict };
  }
  return { strict };
}

/**
 * The choice at the end of a read (`AnswerReader.end`, which `parseValue` and a stream's `finish()`
 * both are): every reading of the answer (`candidates`, built from what the reader read) coerced to the
 * type, and the best one kept (see `better`), or a `SapParseError` with the raw text when none fits.
 * `marker`: the final-answer markers of the whole answer (the reader's, fed the same text).
 */
export function chooseReading(
  text: string,
  type: Type,
  index: IrIndex,
  options: ParseOptions,
  candidates: Candidate[],
  baseOf: CandidateBase,
  marker: FinalAnswerMarker,
): ParseResult {
  const context = createCoerceContext(index, coercers, options);
  const work = options.work;
  if (work) {
    // Coercers call each other through `context.coerce`, so counting there counts every coercer call.
    const coerce = context.coerce;
    context.coerce = (type, node, path) => {
      work.steps++;
      return coerce(type, node, path);
    };
  }
  const plainText = context.plainText(type);
  let chosen: { result: CoerceSuccess; candidate: Candidate } | undefined;
  const fitted: { result: CoerceSuccess; candidate: Candidate }[] = [];
  const failures: { issue: CoerceIssue; candidate: Candidate }[] = [];
  // An answer that is one quoted string is that string for a target that reads text: a `[` or `{`
  // inside it is text (a stream never sees it as a container).
  const wholeString =
    plainText !== "never" && candidates.some((candidate) => candidate.wholeString && !candidate.reasoning);
  const parsedAny = candidates.some((candidate) => candidate.origin !== "text" && !candidate.reasoning);
  const fittedCandidates = new Set<Candidate>();
  for (const candidate of candidates) {
    // Readings that include the reasoning come last, and only count when the answer after it has none.
    if (candidate.reasoning && chosen) break;
    if (candidate.parent && fittedCandidates.has(candidate.parent)) continue;
    if (wholeString && !candidate.wholeString && !candidate.reasoning) continue;
    if (candidate.origin === "text" && (plainText === "never" || (plainText === "fallback" && parsedAny)))
      continue;
    // A blank answer has nothing to split into items (`[""]` would be a value the text does not hold).
    if (candidate.origin === "text" && plainText === "fallback" && text.trim() === "") continue;
    if (
      candidate.origin === "text" &&
      candidate.fenceTag === undefined &&
      chosen &&
      structureIsTheAnswer(chosen)
    )
      continue;
    context.active.clear();
    let coerced: CoerceResult;
    const exact =
      candidate.json === undefined ? NOT_EXACT : readExactOrNothing(type, candidate.json.value, index);
    try {
      coerced =
        exact !== NOT_EXACT
          ? { ok: true, value: exact, flags: [], score: 0, checks: [] }
          : context.coerce(type, candidate.node, "$");
    } catch (error) {
      if (!(error instanceof TooDeep)) throw error;
      context.depth = 0;
      coerced = error.failure;
    }
    if (!coerced.ok) {
      failures.push({ issue: coerced.issue, candidate });
      continue;
    }
    const result = withOriginFlags(coerced, candidate);
    fitted.push({ result, candidate });
    fittedCandidates.add(candidate);
    if (!chosen || better(result, candidate, chosen.result, chosen.candidate, marker))
      chosen = { result, candidate };
    // Valid JSON that fits exactly: nothing else can do better.
    if (candidate.origin === "json" && result.score === 0) break;
  }
  if (chosen) {
    let result = chosen.result;
    const differing = readingsThatDiffer(chosen, fitted);
    if (differing > 0) {
      result = addFlag(
        result,
        "ChoseCandidate",
        "$",
        `${differing + 1} readings of the answer gave different values; chose ${describeOrigin(chosen.candidate)} (${whyChosen(chosen, fitted, marker)}) and dropped ${differing === 1 ? "the other" : `the ${differing} others`}`,
      );
    }
    // Flags about where the value came from, and those of nodes not read from text, point at the reading.
    const reading = chosen.candidate.span ?? { start: 0, end: text.length };
    const flags = placeFlags(result.flags, baseOf(chosen.candidate), reading);
    return { value: result.value, flags, score: result.score, checks: [...result.checks] };
  }
  throw new SapParseError({ ...reportedIssue(text, failures, context.describe(type)), raw: text });
}

/** The chosen reading is the whole answer as structured data (see `structureBeatsText`). */
function structureIsTheAnswer(chosen: { result: CoerceSuccess; candidate: Candidate }): boolean {
  const { candidate, result } = chosen;
  const wholeAnswer =
    candidate.origin !== "text" &&
    candidate.origin !== "combined" &&
    !candidate.surrounded &&
    !candidate.parent;
  return structureBeatsText(result.value, wholeAnswer);
}

/**
 * How many other fitting readings produced a different value (worth telling the user about). The plain
 * text reading is a fallback: it only counts when it is the one chosen.
 */
function readingsThatDiffer(
  chosen: { result: CoerceSuccess; candidate: Candidate },
  fitted: { result: CoerceSuccess; candidate: Candidate }[],
): number {
  if (fitted.length < 2) return 0;
  const text = JSON.stringify(chosen.result.value);
  const others = new Set<string>();
  for (const { result, candidate } of fitted) {
    if (result === chosen.result || (candidate.origin === "text" && chosen.candidate.origin !== "text"))
      continue;
    const other = JSON.stringify(result.value);
    if (other !== text) others.add(other);
  }
  return others.size;
}

/** The exact reading, or NOT_EXACT — also for a type the IR lacks (the lenient path reports that). */
function readExactOrNothing(type: Type, value: unknown, index: IrIndex): unknown {
  try {
    return readExact(type, value, index);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith("Unknown ")) return NOT_EXACT;
    throw error;
  }
}

/**
 * How a reading ranks on equal scores: its origin's rank, except that a string read from a fence that is
 * only part of the answer ranks below the answer as text (`fenceIsTheAnswer`).
 */
function readingRank(candidate: Candidate, result: CoerceSuccess): number {
  return candidate.fenceInProse && typeof result.value === "string" ? -1 : rank(candidate);
}

function rank(candidate: Candidate): number {
  if (candidate.origin === "text") return candidate.fenceTag === undefined ? 0 : 1;
  return ORIGIN_RANK[candidate.origin];
}

function better(
  result: CoerceSuccess,
  candidate: Candidate,
  best: CoerceSuccess,
  bestCandidate: Candidate,
  marker: FinalAnswerMarker,
): boolean {
  const score = rankingScore(result, candidate);
  const bestScore = rankingScore(best, bestCandidate);
  if (score !== bestScore) return score < bestScore;
  const level = (placing: Placing) => marker.level(placing.order);
  return ranksAbove(placingOf(candidate, result), placingOf(bestCandidate, best), level);
}

function placingOf(candidate: Candidate, result: CoerceSuccess): Placing {
  return {
    rank: readingRank(candidate, result),
    combined: candidate.origin === "combined",
    nested: Boolean(candidate.parent),
    order: candidate.order,
  };
}

/** The score a candidate is ranked by: a list gathered from several objects, per object. */
function rankingScore(result: CoerceSuccess, candidate: Candidate): number {
  if (candidate.origin !== "combined" || candidate.node.kind !== "array") return result.score;
  return gatheredScore(result.score, candidate.node.items.length);
}

function withOriginFlags(result: CoerceSuccess, candidate: Candidate): CoerceSuccess {
  const flags = originFlags(candidate);
  if (flags.length === 0) return result;
  return { ...result, flags: [...result.flags, ...flags], score: result.score + scoreFlags(flags) };
}

/** Why the chosen reading won: a lower score, a better origin, or its place in the answer. */
function whyChosen(
  chosen: { result: CoerceSuccess; candidate: Candidate },
  fitted: { result: CoerceSuccess; candidate: Candidate }[],
  marker: FinalAnswerMarker,
): string {
  const score = rankingScore(chosen.result, chosen.candidate);
  const tied = fitted.filter(
    ({ result, candidate }) =>
      result !== chosen.result && candidate.origin !== "text" && rankingScore(result, candidate) === score,
  );
  if (
    chosen.candidate.origin === "text" &&
    chosen.candidate.fenceTag === undefined &&
    fitted.some(({ result, candidate }) => readingRank(candidate, result) < 0)
  )
    return "a code block that is only part of the answer is not the answer";
  if (tied.length === 0) return "lowest score";
  const level = marker.level(chosen.candidate.order);
  if (level > 1) return "equally good; it follows the final-answer marker";
  if (tied.some(({ candidate }) => marker.level(candidate.order) < level))
    return "equally good; the others are examples";
  return "equally good; a fence beats prose, else the first wins";
}

function describeOrigin(candidate: Candidate): string {
  switch (candidate.origin) {
    case "json":
      return "the whole answer as JSON";
    case "fence":
      return "the code block";
    case "prose":
      return "the value found in the text";
    case "combined":
      return "all objects as one list";
    case "text":
      return candidate.fenceTag === undefined ? "the answer as plain text" : "the code block's text";
  }
}

/** The failure worth reporting: the one that got deepest into the value, then the best-ranked reading. */
function entryCount(candidate: Candidate): number {
  return candidate.node.kind === "object" ? candidate.node.entries.length : 0;
}

function reportedIssue(
  text: string,
  failures: { issue: CoerceIssue; candidate: Candidate }[],
  expected: string,
): CoerceIssue {
  if (failures.length === 0) {
    if (text.trim() === "") return { code: "empty-answer", path: "$", expected, found: "an empty answer" };
    return {
      code: "type-mismatch",
      path: "$",
      expected,
      found: `text with no JSON object or list: ${describeNode(stringNode(text))}`,
    };
  }
  // An answer in sections named by the class's fields is reported as such (its own failure says more
  // than a bracket in its text read as a list); of two such readings, the one with more sections.
  const sections = failures.filter((failure) => failure.candidate.repairs[0] === SECTIONS_REPAIR);
  const most = Math.max(0, ...sections.map((failure) => entryCount(failure.candidate)));
  sections.splice(
    0,
    sections.length,
    ...sections.filter((failure) => entryCount(failure.candidate) === most),
  );
  const considered = sections.length > 0 ? sections : failures;
  let best = considered[0]!;
  for (const failure of considered.slice(1)) {
    const depth = pathDepth(failure.issue.path) - pathDepth(best.issue.path);
    if (depth > 0 || (depth === 0 && rank(failure.candidate) > rank(best.candidate))) best = failure;
  }
  if (text.trim() === "") return { ...best.issue, code: "empty-answer", found: "an empty answer" };
  return best.issue;
}
