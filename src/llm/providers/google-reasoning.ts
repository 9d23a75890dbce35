import { eventJson, isRecord, type ReasoningReader, textOf } from "../../provider-helpers/index.js";

/**
 * Gemini thinking: with `thinkingConfig.includeThoughts`, thought summaries arrive as parts marked
 * `thought: true` in the candidate's content, in whole answers and in each streamed response alike.
 */

function thoughtsOf(body: unknown): string {
  const candidate = isRecord(body) && Array.isArray(body.candidates) ? body.candidates[0] : undefined;
  const parts = isRecord(candidate) && isRecord(candidate.content) ? candidate.content.parts : undefined;
  if (!Array.isArray(parts)) return "";
  let text = "";
  for (const part of parts) if (isRecord(part) && part.thought === true) text += textOf(part.text);
  return text;
}

export const googleReasoning: ReasoningReader = {
  fromResponse: thoughtsOf,
  fromEvent: (event) => {
    const data = eventJson(event, '"thought"');
    return data === undefined ? "" : thoughtsOf(data);
  },
};
