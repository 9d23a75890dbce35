import type { Ir, Type } from "../ir/index.js";
import { parseTypeExpression, renderDiagnostics } from "../language/index.js";
import { evaluateConstraint } from "../prompt/index.js";
import {
  createStreamParser,
  type Flag,
  parsePartial,
  parseValue,
  SapConfigurationError,
  SapParseError,
} from "../sap/index.js";
import { HttpError } from "../server/index.js";
import type { DevParseResult, DevRepairView, DevReplayResult } from "./dev-api.js";

/** The most chunks a replay is cut into; a smaller chunk size for a long answer is raised to fit. */
const MAX_REPLAY_STEPS = 2000;

/** A type expression of the project (`Resume`, `Resume[]`, `map<string, int>`), or a 400 saying why not. */
export function typeFromExpression(text: string, ir: Ir): Type {
  const { type, diagnostics } = parseTypeExpression(text, ir);
  if (!type)
    throw new HttpError(
      400,
      "INVALID_TYPE",
      `"${text}" is not a type of this project:\n${renderDiagnostics(diagnostics, { "<type>": text })}`,
    );
  return type;
}

/** Parses `text` toward `type` as the generated client would; a failure comes back with its path. */
export function exploreParse(text: string, type: Type, ir: Ir, partial = false): DevParseResult {
  try {
    const options = { constraintEvaluator: evaluateConstraint };
    const result = partial ? parsePartial(text, type, ir, options) : parseValue(text, type, ir, options);
    return { ok: true, value: result.value, repairs: result.flags.map(repairView) };
  } catch (error) {
    if (SapParseError.isInstance(error))
      return {
        ok: false,
        error: { message: error.message, path: error.path, expected: error.expected, found: error.found },
      };
    if (SapConfigurationError.isInstance(error))
      return { ok: false, error: { message: error.message, path: null, expected: null, found: null } };
    throw error;
  }
}

/**
 * The answer pushed through the streaming parser `chunkSize` characters at a time (as a model would send
 * it), with the partial value after each chunk that changed it, then the final parse.
 */
export function replayParse(text: string, type: Type, ir: Ir, chunkSize: number): DevReplayResult {
  const size = Math.max(1, Math.floor(chunkSize), Math.ceil(text.length / MAX_REPLAY_STEPS));
  const parser = createStreamParser(type, ir, { constraintEvaluator: evaluateConstraint });
  const steps: DevReplayResult["steps"] = [];
  for (let start = 0; start < text.length; start += size) {
    const end = Math.min(text.length, start + size);
    // Code points stay whole in a chunk only by luck; the parser takes any split, so this shows real ones.
    const push = parser.push(text.slice(start, end));
    if (push.changed || steps.length === 0 || end === text.length) steps.push({ end, value: push.value });
  }
  return { steps, final: exploreParse(text, type, ir) };
}

/** A flag as the page shows it: its span in the raw answer marks the repaired stretch. */
export function repairView(flag: Flag): DevRepairView {
  return { kind: flag.kind, path: flag.path, detail: flag.detail, span: flag.span ?? null };
}
