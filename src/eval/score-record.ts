import type { IrIndex, Type } from "../ir/index.js";
import { answerText, type EvalRecord } from "./eval-record.js";
import type { ScoreConfig } from "./score-config.js";
import { type RowScore, ValueScorer } from "./score-value.js";
import { type JsonRepair, repairedBaseline, strictBaseline } from "./strict-baseline.js";

/** A record scored: Sapling's value, and what each baseline made of the same answer. */
export interface ScoredRecord {
  record: EvalRecord;
  score: RowScore;
  strict: { parsed: boolean; correct: boolean };
  /** `null` when no repair function was given (jsonrepair not installed). */
  repaired: { parsed: boolean; correct: boolean } | null;
}

/** Scores records of one function against the dataset's expected values. */
export class RecordScorer {
  readonly values: ValueScorer;
  readonly #wrappedRoot: boolean;

  constructor(
    readonly index: IrIndex,
    readonly type: Type,
    config: ScoreConfig | undefined,
    readonly repair: JsonRepair | undefined,
  ) {
    this.values = new ValueScorer(index, type, config);
    let root = type;
    while (root.kind === "alias")
      root = index.aliases.get(root.name)?.type ?? { kind: "primitive", name: "null" };
    // Tools and native modes wrap a root that is not a class as {"value": …} (docs/decisions/0013).
    this.#wrappedRoot = root.kind !== "class";
  }

  score(record: EvalRecord, expected: unknown): ScoredRecord {
    const score = this.values.score(record.ok ? record.value : undefined, expected);
    const answer = answerText(record);
    const options = { wrapped: this.#wrappedRoot && record.mode !== "prompt" };
    const judge = (reading: { ok: true; value: unknown } | { ok: false }) =>
      reading.ok
        ? { parsed: true, correct: this.values.score(reading.value, expected).correct }
        : { parsed: false, correct: false };
    return {
      record,
      score,
      strict:
        answer === null
          ? { parsed: false, correct: false }
          : judge(strictBaseline(this.index, this.type, answer, options)),
      repaired:
        this.repair === undefined
          ? null
          : answer === null
            ? { parsed: false, correct: false }
            : judge(repairedBaseline(this.index, this.type, answer, this.repair, options)),
    };
  }
}
