/**
 * A tally of the parser's work, for tests and the fuzz run that check an input costs work in proportion
 * to its length (counting is exact and machine-independent, where timing is neither). Pass one in
 * `ParseOptions.work` and read `steps` afterwards.
 *
 * What counts as one step: one state-machine step of the fixing parser (each consumes at least one
 * character; a step that reads a whole run of ordinary characters is still one), one character scanned
 * while looking for fences and their closing lines, one candidate reading, and one coercer call.
 * The count is a proxy for time: an answer that makes any of these grow faster than its length makes the
 * count grow faster too.
 */
export interface WorkCounter {
  steps: number;
}
