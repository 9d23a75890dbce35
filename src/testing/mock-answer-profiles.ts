/**
 * Answer profiles for the mock LLM server: each answers a request with the row's expected value written
 * in one of the forms real models are documented to use (clean JSON; a fence inside prose; reasoning
 * before the JSON; "7.5" for an int and "Strong Hire" for an enum; an answer cut by max_tokens; strict
 * JSON that is cut). They are PROFILES, not models: they know the right answer and only vary its form,
 * so an eval over them measures what each form costs a parser — never how good any model is.
 *
 * The profile is the requested model name (`model "fenced-prose"`); the row is found by its text in the
 * prompt (`profileAnswerKey`). Profiles speak the OpenAI chat format (clients `openai-generic`).
 */
import type { MockAnswer } from "./mock-answer.js";
import type { RecordedRequest } from "./start-mock-llm-server.js";

/** How the request asks for structure: the schema in the prompt, a forced tool, or an enforced format. */
type RequestMode = "prompt" | "tools" | "native";

export interface MockAnswerProfile {
  /** One line for docs and `--help`: what form this profile writes. */
  description: string;
  /** The answer for a request in `mode`, given the expected value and a number in [0, 1) fixed per row. */
  answer(expected: unknown, mode: RequestMode, draw: number): { text: string; finishReason?: "length" };
}

const pretty = (value: unknown) => JSON.stringify(value, null, 2);
const compact = (value: unknown) => JSON.stringify(value);

/** Cuts `text` between half and nine tenths of its length, at a point fixed by `draw`. */
const cut = (text: string, draw: number) => text.slice(0, Math.floor(text.length * (0.5 + 0.4 * draw)));

/**
 * In tools and native modes the provider constrains the answer to the schema, so the forms that add
 * prose or loosen types cannot occur there: those profiles answer with the JSON itself.
 */
const constrained = (expected: unknown) => ({ text: compact(expected) });

export const mockAnswerProfiles: Record<string, MockAnswerProfile> = {
  "clean-json": {
    description: "the JSON of the expected value, nothing else",
    answer: (expected, mode) => (mode === "prompt" ? { text: pretty(expected) } : constrained(expected)),
  },
  "fenced-prose": {
    description: "a ```json fence between a sentence of prose before and after",
    answer: (expected, mode) =>
      mode === "prompt"
        ? {
            text: `Here is the structured evaluation you asked for:\n\n\`\`\`json\n${pretty(expected)}\n\`\`\`\n\nLet me know if you would like me to expand on any part.`,
          }
        : constrained(expected),
  },
  "reasoning-first": {
    description: "a few lines of step-by-step reasoning, then the JSON after 'Final answer:'",
    answer: (expected, mode) =>
      mode === "prompt"
        ? {
            text: `Let me work through this step by step.\n1. Read the text once for names and dates.\n2. Count the durations from the dates given.\n3. Weigh what was found against the question.\n\nFinal answer:\n${pretty(expected)}`,
          }
        : constrained(expected),
  },
  "loose-types": {
    description: 'ints as strings half a unit below ("7.5" for 8) and enum values in words ("Strong Hire")',
    answer: (expected, mode) =>
      mode === "prompt" ? { text: pretty(loosen(expected)) } : constrained(expected),
  },
  "cut-by-max-tokens": {
    description: "the fenced prose answer cut between 50% and 90% of its length (finish reason length)",
    answer: (expected, mode, draw) => ({
      text: cut(
        mode === "prompt"
          ? `Here is the evaluation:\n\n\`\`\`json\n${pretty(expected)}\n\`\`\``
          : compact(expected),
        draw,
      ),
      finishReason: "length",
    }),
  },
  "strict-json-cut": {
    description: "compact strict JSON cut between 50% and 90% of its length (finish reason length)",
    answer: (expected, _mode, draw) => ({ text: cut(compact(expected), draw), finishReason: "length" }),
  },
};

/**
 * `8` → `"7.5"`, `STRONG_HIRE` → `"Strong Hire"` (upper-case names joined by `_`, the shape of enum values;
 * a one-word value like `HIRE` stays, so that `AWS` in a list of skills is not taken for one), recursively.
 */
function loosen(value: unknown): unknown {
  if (Number.isInteger(value) && (value as number) >= 1) return String((value as number) - 0.5);
  if (typeof value === "string" && /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(value))
    return value
      .toLowerCase()
      .split("_")
      .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
      .join(" ");
  if (Array.isArray(value)) return value.map(loosen);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, loosen(item)]));
  return value;
}

/** A dataset row as the profiles need it: the arguments, and the value the answer should carry. */
export interface ProfileRow {
  args: Record<string, unknown>;
  expected: unknown;
}

/**
 * Finds the row a prompt was rendered from: by the first line of the row's longest text argument, looked
 * up line by line in the prompt, then confirmed by the whole argument appearing in it (linear in the
 * prompt's lines, not in the dataset). Rows without a text argument cannot be found.
 */
export function profileAnswerKey(
  rows: readonly ProfileRow[],
): (promptText: string) => ProfileRow | undefined {
  const byLine = new Map<string, { row: ProfileRow; text: string }[]>();
  for (const row of rows) {
    const text = Object.values(row.args)
      .filter((value): value is string => typeof value === "string")
      .reduce((longest, value) => (value.trim().length > longest.length ? value.trim() : longest), "");
    const line = text
      .split("\n")
      .find((candidate) => candidate.trim() !== "")
      ?.trim();
    if (!line) continue;
    const entries = byLine.get(line) ?? [];
    entries.push({ row, text });
    byLine.set(line, entries);
  }
  return (promptText) => {
    for (const line of promptText.split("\n")) {
      const entries = byLine.get(line.trim());
      const found = entries?.find((entry) => promptText.includes(entry.text));
      if (found) return found.row;
    }
    return undefined;
  };
}

/** A number in [0, 1) fixed by a text (FNV-1a), so a profile cuts the same row at the same place. */
function drawFor(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) / 2 ** 32;
}

/**
 * The mock server's `respond` for profiles: the model name picks the profile, the prompt the row. A
 * request for an unknown profile, or whose prompt names no row, gets an HTTP 400 that says so.
 */
export function respondWithProfiles(
  findRow: (promptText: string) => ProfileRow | undefined,
): (request: RecordedRequest) => MockAnswer {
  return (request) => {
    const profile = mockAnswerProfiles[request.model ?? ""];
    if (!profile)
      return {
        fault: {
          type: "http-error",
          status: 400,
          message: `mock profiles: no profile named ${JSON.stringify(request.model)}; profiles: ${Object.keys(mockAnswerProfiles).join(", ")}`,
        },
      };
    const row = findRow(request.promptText);
    if (!row)
      return {
        fault: {
          type: "http-error",
          status: 400,
          message:
            "mock profiles: the prompt contains no dataset row's text, so there is no expected value to answer with",
        },
      };
    const tools = request.body.tools;
    const mode: RequestMode =
      Array.isArray(tools) && tools.length > 0
        ? "tools"
        : request.body.response_format !== undefined
          ? "native"
          : "prompt";
    const expected = mode !== "prompt" && isWrapped(request.body) ? { value: row.expected } : row.expected;
    const { text, finishReason } = profile.answer(expected, mode, drawFor(compact(row.expected)));
    // The mock counts output tokens from the text; tool arguments are output too.
    const options = {
      ...(finishReason ? { finishReason } : {}),
      usage: { outputTokens: Math.ceil(text.length / 4) },
    };
    if (mode === "tools") {
      const name = toolName(tools as unknown[]);
      return { ...options, toolCalls: [{ name, arguments: text }] };
    }
    return { ...options, text };
  };
}

function toolName(tools: readonly unknown[]): string {
  const first = tools[0] as { function?: { name?: unknown } } | undefined;
  return typeof first?.function?.name === "string" ? first.function.name : "answer";
}

/** Whether the request's schema is the `{"value": …}` wrapper of a root that is not an object. */
function isWrapped(body: Record<string, unknown>): boolean {
  const schema =
    (body.response_format as { json_schema?: { schema?: unknown } } | undefined)?.json_schema?.schema ??
    (body.tools as { function?: { parameters?: unknown } }[] | undefined)?.[0]?.function?.parameters;
  const properties = (schema as { properties?: Record<string, unknown> } | undefined)?.properties;
  return properties !== undefined && Object.keys(properties).length === 1 && "value" in properties;
}
