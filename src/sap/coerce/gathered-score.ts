/**
 * The score a reading that gathers several objects into one list (`{"r": 1}⏎{"r": 2}⏎{"r": 3}` for
 * `A[]`) is ranked by: its score per object. Each object brings its own repairs (a missing optional
 * field, say), so the sum grows with the count, and from three objects on a single one of them (wrapped
 * as a one-item list) would win: gathering must not be penalised by count. The result keeps its real
 * score; only the comparison uses this. Final mode (`parseValue`) and streams (`PartialReader`) alike.
 */
export function gatheredScore(score: number, objects: number): number {
  return objects > 1 ? score / objects : score;
}
