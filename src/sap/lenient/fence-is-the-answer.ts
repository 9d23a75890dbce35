/**
 * When a code fence is the answer for a target that reads text (`string`): only when the whole answer is
 * that fence, optionally after one line of lead-in (`Here is the code:`), with nothing but blanks after
 * it. Otherwise the fence is part of a longer answer (a markdown explanation with an example, several
 * code blocks), and the answer is the text as written, as in BAML. The end of a read (`candidatesAtEnd`) and
 * the stream's partials both ask this one rule.
 *
 * `start`: the fence's opening backticks; `end`: just after its closing backticks, or the end of the text
 * when it is still open (then nothing follows it yet).
 */
export function fenceIsTheAnswer(text: string, start: number, end: number): boolean {
  return leadInIsOneLine(text, start) && /^\s*$/.test(text.slice(end));
}

/**
 * Whether the text before `start` is blank or one line of lead-in (blank lines around it allowed). Known
 * as soon as the fence opens: a stream can tell from then on that a fence after more text is not the
 * whole answer.
 */
export function leadInIsOneLine(text: string, start: number): boolean {
  const lead = text.slice(0, start).trim();
  return !lead.includes("\n");
}
