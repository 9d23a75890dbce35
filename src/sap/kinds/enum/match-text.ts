import { editDistance } from "./edit-distance.js";
import { normalizeWords } from "./normalize-words.js";

/** One value text may name: an enum value or a string literal. */
export interface MatchOption {
  /** What the match returns (the declared enum value name, the literal). */
  value: string;
  /** Spellings the model was shown (the alias if any, else the name). */
  names: string[];
  /**
   * Spellings that also name the option although the model was not shown them (an enum value's declared
   * name behind its `@alias`). Every shown spelling of every option is tried before these.
   */
  otherNames?: string[];
  descriptions: string[];
}

export type MatchOutcome =
  | { kind: "exact"; value: string }
  | { kind: "caseFold"; value: string; matched: string }
  | { kind: "description"; value: string }
  | { kind: "substring"; value: string; matched: string }
  | { kind: "typo"; value: string; matched: string }
  | { kind: "ambiguous"; values: string[] }
  | { kind: "negated"; value: string; matched: string }
  | { kind: "none" };

interface Spelling {
  option: MatchOption;
  text: string;
  words: string[];
  description: boolean;
}

/** Words that negate a value named shortly after them in the same clause (`t` is what `n't` leaves). */
const NEGATIONS = new Set(["not", "no", "never", "nor", "neither", "without", "t", "cannot"]);
/** How many words before a name a negation still applies to it ("would not rate them as a strong hire"). */
const NEGATION_REACH = 5;

/** Only text this short is compared for typos (longer text is prose, and typos in prose are guesses). */
const TYPO_TEXT_LIMIT = 64;

/**
 * Which option does the text name? In order: the exact spelling; the same words ignoring case, spacing,
 * `_`/`-`, punctuation and camelCase (a description counts too); the option named as whole words inside
 * longer text — the longest spelling wins where spellings overlap (`lean reject` names LEAN_REJECT, not
 * REJECT), two different options named is ambiguous, and an option named only negated ("I would not call
 * it a strong hire") is not a match; finally a unique near-miss typo.
 */
export function matchText(text: string, options: readonly MatchOption[]): MatchOutcome {
  const trimmed = text.trim();
  for (const option of options) {
    if (option.names.includes(trimmed)) return { kind: "exact", value: option.value };
  }
  for (const option of options) {
    if (option.otherNames?.includes(trimmed)) return { kind: "exact", value: option.value };
  }
  const words = normalizeWords(trimmed);
  if (words.length === 0) return { kind: "none" };
  const joined = words.join(" ");
  const squashed = words.join("");
  const spellings = spellingsOf(options);
  let folded: Spelling | undefined;
  for (const spelling of spellings) {
    // The same words, or the same letters with the word breaks lost (`stronghire`, `inprogress`).
    const same =
      spelling.words.join(" ") === joined || (!spelling.description && spelling.words.join("") === squashed);
    if (!same) continue;
    if (spelling.description) return { kind: "description", value: spelling.option.value };
    // Names of two options that differ only in case (`AA`, `Aa`, `aa`): the exact case decided above, so
    // a spelling in none of them names neither.
    if (folded !== undefined && folded.option.value !== spelling.option.value) {
      return { kind: "ambiguous", values: [folded.option.value, spelling.option.value] };
    }
    folded ??= spelling;
  }
  if (folded !== undefined) return { kind: "caseFold", value: folded.option.value, matched: folded.text };
  // The whole text one small typo away from one value (`Stong Hire`) beats a value named inside it
  // (`Hire`): the text is that value misspelt, not a sentence that mentions the other. Two values equally
  // close is a guess either way.
  const typo = trimmed.length <= TYPO_TEXT_LIMIT ? nearMiss(words, spellings) : NONE;
  if (typo.kind === "ambiguous") return typo;
  const named = wholeWordMatches(clauseWords(trimmed), spellings);
  if (typo.kind === "typo" && !(named.size === 1 && named.get(typo.value)?.affirmed)) return typo;
  if (named.size === 1) {
    const [value, { matched, affirmed }] = [...named][0]!;
    return affirmed ? { kind: "substring", value, matched } : { kind: "negated", value, matched };
  }
  if (named.size > 1) {
    // Exact case beats case-folded matches (`TWO" is one of the correct answers` names TWO, not one).
    const exactCase = [...named].filter(([, { matched }]) => namedInExactCase(trimmed, matched));
    if (exactCase.length === 1 && exactCase[0]![1].affirmed) {
      const [value, { matched }] = exactCase[0]!;
      return { kind: "substring", value, matched };
    }
    return { kind: "ambiguous", values: [...named.keys()] };
  }
  return typo;
}

/** Whether `text` holds `name` as written, case included, as whole words. */
function namedInExactCase(text: string, name: string): boolean {
  let at = text.indexOf(name);
  while (at >= 0) {
    const before = text[at - 1] ?? " ";
    const after = text[at + name.length] ?? " ";
    if (!/[\p{L}\p{N}_]/u.test(before) && !/[\p{L}\p{N}_]/u.test(after)) return true;
    at = text.indexOf(name, at + 1);
  }
  return false;
}

const NONE: MatchOutcome = { kind: "none" };

const spellingsByOptions = new WeakMap<readonly MatchOption[], Spelling[]>();

/** Every spelling of the options, shown ones first (cached per options list: enums keep theirs). */
function spellingsOf(options: readonly MatchOption[]): Spelling[] {
  const cached = spellingsByOptions.get(options);
  if (cached) return cached;
  const spellings: Spelling[] = [];
  for (const option of options) {
    for (const name of option.names) {
      spellings.push({ option, text: name, words: normalizeWords(name), description: false });
    }
    for (const description of option.descriptions) {
      spellings.push({ option, text: description, words: normalizeWords(description), description: true });
    }
  }
  for (const option of options) {
    for (const name of option.otherNames ?? []) {
      spellings.push({ option, text: name, words: normalizeWords(name), description: false });
    }
  }
  const kept = spellings.filter((spelling) => spelling.words.length > 0);
  spellingsByOptions.set(options, kept);
  return kept;
}

interface ClauseWords {
  words: string[];
  /**
   * The clause of each word: clauses end at `;`, `!`, `?`, line breaks and "but", and at `.`, `:` and `,`
   * followed by a space or the end (inside a token, as in `3.1` or `k-2-3.1_1`, they join its parts).
   */
  clauses: number[];
}

function clauseWords(text: string): ClauseWords {
  const words: string[] = [];
  const clauses: number[] = [];
  text.split(/(?:[;!?\n]|[.:,](?=\s|$))+|\bbut\b/i).forEach((clause, index) => {
    for (const word of normalizeWords(clause)) {
      words.push(word);
      clauses.push(index);
    }
  });
  return { words, clauses };
}

function negated({ words, clauses }: ClauseWords, start: number): boolean {
  for (let at = start - 1; at >= 0 && at >= start - NEGATION_REACH && clauses[at] === clauses[start]; at--) {
    if (NEGATIONS.has(words[at]!)) return true;
  }
  return false;
}

/**
 * Options named as whole-word runs within one clause; inside overlapping runs only the longest counts.
 * `affirmed`: named at least once without a negation shortly before.
 */
function wholeWordMatches(
  text: ClauseWords,
  spellings: Spelling[],
): Map<string, { matched: string; affirmed: boolean }> {
  const { words, clauses } = text;
  const byFirstWord = new Map<string, Spelling[]>();
  for (const spelling of spellings) {
    if (spelling.description) continue;
    const first = spelling.words[0]!;
    byFirstWord.set(first, [...(byFirstWord.get(first) ?? []), spelling]);
  }
  const runs: { start: number; end: number; spelling: Spelling }[] = [];
  for (let start = 0; start < words.length; start++) {
    for (const spelling of byFirstWord.get(words[start]!) ?? []) {
      const length = spelling.words.length;
      if (start + length > words.length) continue;
      let same = true;
      for (let offset = 1; offset < length && same; offset++)
        same = words[start + offset] === spelling.words[offset];
      if (same && clauses[start] === clauses[start + length - 1])
        runs.push({ start, end: start + length, spelling });
    }
  }
  // Runs come in start order; a run is inside a longer one if an earlier run reaches as far, or a run at
  // the same start reaches further. One sweep keeps this linear in the number of runs.
  const named = new Map<string, { matched: string; affirmed: boolean }>();
  let furthestBefore = -1;
  let index = 0;
  while (index < runs.length) {
    const start = runs[index]!.start;
    let sameStartEnd = -1;
    let next = index;
    while (next < runs.length && runs[next]!.start === start)
      sameStartEnd = Math.max(sameStartEnd, runs[next++]!.end);
    for (let at = index; at < next; at++) {
      const run = runs[at]!;
      if (furthestBefore >= run.end || sameStartEnd > run.end) continue;
      const affirmed = !negated(text, run.start) || named.get(run.spelling.option.value)?.affirmed === true;
      named.set(run.spelling.option.value, { matched: run.spelling.text, affirmed });
    }
    furthestBefore = Math.max(furthestBefore, sameStartEnd);
    index = next;
  }
  return named;
}

/**
 * A unique option within a small edit distance, scaled to its length (none for very short names), of
 * the text written as one word or in as many words as the option: `Strnog Hire` may be STRONG_HIRE, but
 * `I'd hire` is no typo of NO_HIRE. Two options that close is ambiguous.
 */
function nearMiss(words: string[], spellings: Spelling[]): MatchOutcome {
  const text = words.join("");
  const close = new Map<string, string>();
  for (const spelling of spellings) {
    if (spelling.description) continue;
    if (words.length > 1 && words.length !== spelling.words.length) continue;
    const target = spelling.words.join("");
    const allowed = target.length <= 3 ? 0 : target.length <= 5 ? 1 : target.length <= 10 ? 2 : 3;
    if (allowed === 0 || Math.abs(target.length - text.length) > allowed) continue;
    if (editDistance(text, target, allowed) <= allowed && !close.has(spelling.option.value))
      close.set(spelling.option.value, spelling.text);
  }
  if (close.size > 1) return { kind: "ambiguous", values: [...close.keys()] };
  if (close.size === 0) return NONE;
  const [value, matched] = [...close][0]!;
  return { kind: "typo", value, matched };
}
