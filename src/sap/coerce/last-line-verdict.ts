/**
 * The verdict a chain-of-thought answer ends with: its last line, after lines of reasoning
 * (`Step 1: check.⏎Step 2: verify.⏎Y`), without a concluding label (`Conclusion: yes`,
 * `**Final answer:** PASS`, which may also stand alone). Scalar coercers (bool, numbers, enums) read it
 * when the whole text does not name one value: the steps may name others. `read` reads one line as the
 * target (undefined: not a value). No verdict when the last line is long (a sentence: its words are read
 * with the rest of the text), or when an earlier line is a value on its own too (`PASS⏎FAIL` lists
 * values, it does not conclude).
 */
export function lastLineVerdict<T>(
  text: string,
  read: (line: string) => T | undefined,
): { value: T; line: string } | undefined {
  const end = text.trimEnd();
  const cut = end.lastIndexOf("\n");
  const last = end.slice(cut + 1);
  if (last.length > LONGEST_VERDICT + 30) return undefined;
  const labelled = CONCLUDING_LABEL.exec(last.trim());
  if (cut < 0 && labelled === null) return undefined;
  if (cut >= 0 && labelled === null && end.slice(0, cut).trim() === "") return undefined;
  const line = bare(last, labelled);
  if (line === "" || line.length > LONGEST_VERDICT) return undefined;
  const value = read(line);
  if (value === undefined) return undefined;
  if (cut >= 0) {
    for (const before of end.slice(0, cut).split("\n")) {
      const labelledBefore = CONCLUDING_LABEL.exec(before.trim());
      // (A line with another label is a step, never a value on its own: not read, which keeps this linear.)
      if (labelledBefore === null && STEP_LABEL.test(before)) continue;
      const other = bare(before, labelledBefore);
      if (other !== "" && other.length <= LONGEST_VERDICT && read(other) !== undefined) return undefined;
    }
  }
  return { value, line };
}

/** A line without its concluding label, emphasis and closing punctuation. */
function bare(line: string, labelled: RegExpExecArray | null): string {
  const text = line.trim();
  return (labelled === null ? text : text.slice(labelled[0].length))
    .replace(/^[*_`"']+|[*_`"'.!]+$/g, "")
    .trim();
}

/** A label that says the line concludes (not a step's: `Step 2: yes` is a step of the reasoning). */
const CONCLUDING_LABEL =
  /^[*_]*(?:final\s+)?(?:answer|conclusion|verdict|result|decision|output)[*_]*\s*[:：]\s*[*_]*\s*/i;
/** A line of a step or other label (`Step 1: …`). */
const STEP_LABEL = /^[^:]{1,40}:\s/;
/** Longer than this, a last line is a sentence, not a verdict. */
const LONGEST_VERDICT = 40;
