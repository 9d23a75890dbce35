import type { Flag } from "../flags.js";
import type { JsonishNode } from "../lenient/jsonish-node.js";
import type { StrictJson } from "../lenient/parse-strict-json.js";

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

/** The repair of a list gathered from several objects: said by `CombinedCandidates`, not `FixedJson`. */
export const GATHERED_REPAIR = "several objects gathered into a list";

/**
 * The flags that say where a reading came from and how its text was repaired: one rule for the end of a
 * read (`chooseReading`) and a partial parse (`parsePartial`). A fence's value or text is `FromFence`, a
 * value with other text around it `FromProse`, objects gathered into a list `CombinedCandidates`; label
 * lines that wrote a key again `KeyCollision`; the text's repairs one `FixedJson`.
 */
export function originFlags(
  reading: Pick<Candidate, "origin" | "fenceTag" | "surrounded" | "overwritten" | "repairs">,
): Flag[] {
  const flags: Flag[] = [];
  const { origin, fenceTag } = reading;
  if (origin === "fence" || (origin === "text" && fenceTag !== undefined)) {
    flags.push({ kind: "FromFence", path: "$", detail: `read from a \`\`\`${fenceTag ?? ""} code block` });
  } else if ((origin === "prose" || origin === "json") && reading.surrounded) {
    flags.push({ kind: "FromProse", path: "$", detail: "found inside the surrounding text" });
  } else if (origin === "combined") {
    const detail = "several objects in the answer gathered into one list";
    flags.push({ kind: "CombinedCandidates", path: "$", detail });
  }
  if (reading.overwritten !== undefined) {
    flags.push({
      kind: "KeyCollision",
      path: "$",
      detail: `"${reading.overwritten}" is written again with the keys after it, read as one object: the last values kept, the first record's lost (the lines may be a list of records)`,
    });
  }
  const repairs = reading.repairs.filter((repair) => repair !== GATHERED_REPAIR);
  if (repairs.length > 0)
    flags.push({ kind: "FixedJson", path: "$", detail: `repaired: ${repairs.join(", ")}` });
  return flags;
}
