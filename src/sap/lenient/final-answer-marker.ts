/**
 * Of several equally good readings of an answer, the first is the answer (models state it, then explain or
 * give examples; in recorded function-calling runs the first object was right 11 times in 12), unless a
 * later one follows an explicit final-answer marker (`Final Answer:`, `**Final answer**:`, `Final:`,
 * `Corrected:`, `Actual answer:`). One rule,
 * consulted by final mode (`parseValue`) and streams (`preferable`); each reads the marker with a
 * `FinalAnswerMarker` fed the answer's text.
 *
 * (The end of a reasoning block is the other marker: the text after it is read first, see
 * `reasoning-blocks.ts`. A fence over prose is decided by rank before order.)
 */
const MARKER = /\b(?:final(?:\s+answer)?|corrected(?:\s+answer)?|actual\s+answer)\s*\**\s*[:：]/i;
/** The longest marker worth carrying over a chunk boundary. */
const CARRY = 40;

/** Finds where the first final-answer marker ends, chunk by chunk. */
export class FinalAnswerMarker {
  /** Offset just after the first marker, or `Infinity` while none has been seen. */
  end = Number.POSITIVE_INFINITY;
  private tail = "";
  private length = 0;

  push(chunk: string): void {
    if (this.end !== Number.POSITIVE_INFINITY) return;
    const text = this.tail + chunk;
    const start = this.length - this.tail.length;
    this.length += chunk.length;
    const found = MARKER.exec(text);
    if (found) {
      this.end = start + found.index + found[0].length;
      return;
    }
    this.tail = text.slice(-CARRY);
  }
}

/** The final-answer marker's end in a whole text (`Infinity`: none). */
export function finalAnswerMarkerEnd(text: string): number {
  const marker = new FinalAnswerMarker();
  marker.push(text);
  return marker.end;
}

/**
 * Whether a reading at `order` (its position in the answer) beats an equally good one at `bestOrder`:
 * one after the marker beats one before it, else the earlier one wins; at the same position, the one
 * read last (a finer reading of the same text).
 */
export function earlierOrMarked(order: number, bestOrder: number, markerEnd: number): boolean {
  const marked = order >= markerEnd;
  if (marked !== bestOrder >= markerEnd) return marked;
  return order <= bestOrder;
}
