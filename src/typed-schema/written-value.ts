import { type Flag, type FlagKind, fixingParse, nodeToJsonText } from "../sap/index.js";

/**
 * Flags that say where a value was read from or how its syntax was repaired: the value itself is still
 * what the model wrote. Any other flag is a change to the value (a key dropped or case-folded, a scalar
 * turned into text, a value wrapped in a list, …).
 */
const SYNTAX_ONLY = new Set<FlagKind>([
  "FromFence",
  "FromProse",
  "FixedJson",
  "ChoseCandidate",
  "CheckFailed",
]);

/**
 * A missing field the schema step puts back as left out (`DefaultFromMissing`) changes nothing the
 * model wrote either, so it alone is no reason to look at the written value.
 */
const NO_CHANGE = new Set<FlagKind>([...SYNTAX_ONLY, "DefaultFromMissing"]);

/**
 * Readings where the text holds no single value as written: several objects gathered into a list, or an
 * answer cut off (the parser closed what was open).
 */
const NOT_AS_WRITTEN = new Set<FlagKind>(["CombinedCandidates", "Incomplete"]);

/**
 * The JSON the model wrote, in the reading the parser chose, when the parser changed it to fit the type;
 * `undefined` when it made no change, or when that reading is not one complete object or list. The
 * reading is where the parser's origin flags point (`FromFence`, `FromProse`, `FixedJson` carry its
 * span), else the whole answer as strict JSON. Its syntax is repaired by the same fixing parser (single
 * quotes, trailing commas, comments), so a messy rendering gives the same value as a clean one.
 */
export function writtenValue(text: string, flags: readonly Flag[]): unknown {
  if (flags.every((flag) => NO_CHANGE.has(flag.kind))) return undefined;
  if (flags.some((flag) => NOT_AS_WRITTEN.has(flag.kind))) return undefined;
  const origin = flags.find((flag) => flag.path === "$" && SYNTAX_ONLY.has(flag.kind) && flag.span);
  const span = origin?.span ?? { start: 0, end: text.length };
  const reading = text.slice(span.start, span.end);
  const roots = fixingParse(reading);
  const [root] = roots;
  if (roots.length !== 1 || !root || !root.node.complete) return undefined;
  // The root must be the whole reading (not one container among others, nor a part of one).
  if (reading.slice(0, root.start).trim() !== "" || reading.slice(root.end).trim() !== "") return undefined;
  try {
    return JSON.parse(nodeToJsonText(root.node));
  } catch {
    // A number spelt outside JSON (`.5`, `0x1F`): not a JSON value as written.
    return undefined;
  }
}

/** The flags that still hold for the written value: where it was read from and its syntax repairs. */
export function syntaxFlags(flags: readonly Flag[]): Flag[] {
  return flags.filter((flag) => SYNTAX_ONLY.has(flag.kind));
}
