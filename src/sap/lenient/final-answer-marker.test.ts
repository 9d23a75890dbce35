import { describe, expect, it } from "vitest";
import { FinalAnswerMarker } from "./final-answer-marker.js";

/** The markers of a whole text. */
function answerMarkers(text: string): FinalAnswerMarker {
  const marker = new FinalAnswerMarker();
  marker.push(text);
  return marker;
}

/** The markers of `text` fed in pieces of `size` characters. */
function inPieces(text: string, size: number): FinalAnswerMarker {
  const marker = new FinalAnswerMarker();
  for (let at = 0; at < text.length; at += size) marker.push(text.slice(at, at + size));
  return marker;
}

describe("FinalAnswerMarker", () => {
  const text =
    'For example:\n\n{"a": 1}\nAnswer: {"a": 2}\nsee e.g. {"a": 3}\nFinal answer: {"a": 4}\nin JSON format: {"a": 5}';
  const at = (needle: string) => text.indexOf(needle);

  it("ranks a reading by the markers before it and whether an example lead-in introduces it", () => {
    const marker = answerMarkers(text);
    expect(marker.level(at('{"a": 1}'))).toBe(0);
    expect(marker.level(at('{"a": 2}'))).toBe(3);
    expect(marker.level(at('{"a": 3}'))).toBe(2);
    expect(marker.level(at('{"a": 4}'))).toBe(5);
    expect(marker.level(at('{"a": 5}'))).toBe(5);
    // (Past the text read: a combined or whole-text reading, never an example.)
    expect(marker.isExample(text.length)).toBe(false);
  });

  it("finds the same markers and examples whatever the pieces", () => {
    const whole = answerMarkers(text);
    for (const size of [1, 2, 3, 7, 16]) {
      const pieces = inPieces(text, size);
      for (let order = 0; order <= text.length; order++)
        expect([size, order, pieces.level(order)]).toEqual([size, order, whole.level(order)]);
    }
  });

  it("takes `Answer:` and `Output:` as markers only where they start a line", () => {
    const marker = answerMarkers('The answer: {"a": 1} and {"a": 2}\n**Output:** {"a": 3}');
    expect(marker.markersBefore(20)).toBe(0);
    expect(marker.markersBefore(60)).toBe(1);
  });
});
