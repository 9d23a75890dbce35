import type { Ir, Type } from "../ir/index.js";
import type {
  CallOptions,
  ClientRegistry,
  Collector,
  OutputMode,
  RuntimeOptions,
  SaplingRuntime,
} from "../runtime/index.js";
import type { PartialOf } from "./partial-of.js";
import type { TypedSchema } from "./typed-schema.js";

/** One turn of the conversation sent to the model. */
export interface ExtractMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/**
 * What `extract` asks for: a model, what to say to it, and how hard to try. The schema's compact text is
 * added to the instructions (as `{{ ctx.output_format }}` would), the answer is read by the Schema-Aligned
 * Parser and then checked by the schema's own rules; an answer the rules reject is sent back with the
 * issues, up to `maxRetries` times.
 */
export interface ExtractOptions {
  /**
   * The model: `"provider/model"` (`"openai/gpt-4o-mini"`, `"anthropic/claude-sonnet-4-5"`; keys from
   * the provider's usual variable in `env`), or the name of a client of `clientRegistry`. May be left out
   * when `clientRegistry` has a primary client.
   */
  client?: string | undefined;
  /** The user's text (one user turn). Give `prompt` or `messages`. */
  prompt?: string | undefined;
  /** The conversation so far. Give `prompt` or `messages`. */
  messages?: readonly ExtractMessage[] | undefined;
  /** System instructions, sent before the schema text. */
  instructions?: string | undefined;
  /**
   * How many times an answer that cannot be read, or whose value the schema rejects, is sent back to the
   * model with what is wrong (instructor's `max_retries`). Default 1; 0 never re-asks.
   */
  maxRetries?: number | undefined;
  /** `"prompt"` (default: the compact schema in the prompt), `"tools"` or `"native"` (docs/runtime.md). */
  outputMode?: OutputMode | undefined;
  /** Clients defined in code (options, retry policies, fallbacks); `client` may name one of them. */
  clientRegistry?: ClientRegistry | undefined;
  /** Records every call, re-asks included (one `FunctionLog` per `extract`, one `LlmCall` per request). */
  collector?: Collector | Collector[] | undefined;
  /** Cancels the call. */
  signal?: AbortSignal | undefined;
  /**
   * Environment for API keys and `env.NAME` (default: `process.env` where there is one, else none).
   */
  env?: Record<string, string | undefined> | undefined;
  /** The `fetch` to use (default: the global one). */
  fetch?: typeof fetch | undefined;
}

/** A streamed extraction: typed partials while the answer arrives, then the validated value. */
export interface ExtractStream<Value> extends AsyncIterable<PartialOf<Value>> {
  /** The validated value (after any re-asks). */
  final(): Promise<Value>;
}

/** The function `extract` runs: its name, as it appears in the Collector and in errors. */
export const EXTRACT_FUNCTION = "Extract";

const stringType: Type = { kind: "primitive", name: "string" };

/**
 * The prompt: instructions, the schema text, then the conversation. Message texts are arguments, never
 * template text, so a `{{` in a user's message is sent as written.
 */
const extractPrompt = `
{{ _.role("system") }}
{% if instructions %}{{ instructions }}

{% endif %}{{ ctx.output_format }}
{% for message in messages %}
{{ _.role(message.role) }}
{{ message.content }}
{% endfor %}
`;

/** The schema's IR with one function that asks for its type. */
function extractIr(schema: TypedSchema, client: string): Ir {
  return {
    ...schema.ir,
    functions: [
      {
        name: EXTRACT_FUNCTION,
        params: [
          { name: "instructions", type: { kind: "optional", inner: stringType } },
          {
            name: "messages",
            type: { kind: "list", item: { kind: "map", key: stringType, value: stringType } },
          },
        ],
        returnType: schema.type,
        client,
        prompt: extractPrompt,
      },
    ],
  };
}

function conversation(options: ExtractOptions): ExtractMessage[] {
  if (options.messages !== undefined && options.prompt !== undefined) {
    throw new TypeError("extract: give `prompt` or `messages`, not both.");
  }
  if (options.messages !== undefined) {
    if (options.messages.length === 0)
      throw new TypeError("extract: `messages` is empty; give at least one.");
    return [...options.messages];
  }
  if (options.prompt !== undefined) return [{ role: "user", content: options.prompt }];
  throw new TypeError("extract: say what to extract from, with `prompt` (a text) or `messages`.");
}

function defaultEnv(): Record<string, string | undefined> {
  const process = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  return process?.env ?? {};
}

/** A runtime for this schema and client, loaded on first use so that `parse` alone never loads it. */
async function prepare(
  schema: TypedSchema,
  options: ExtractOptions,
): Promise<{ runtime: SaplingRuntime; args: Record<string, unknown>; call: CallOptions }> {
  const { SaplingRuntime } = await import("../runtime/index.js");
  const runtimeOptions: RuntimeOptions = {
    env: options.env ?? defaultEnv(),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  };
  const client = options.client ?? options.clientRegistry?.primary;
  if (client === undefined) {
    throw new TypeError(
      'extract: name the model with `client` ("openai/gpt-4o-mini"), or pass a `clientRegistry` with a primary client.',
    );
  }
  const runtime = SaplingRuntime.fromIr(extractIr(schema, client), runtimeOptions);
  const maxRetries = options.maxRetries ?? 1;
  if (!Number.isInteger(maxRetries) || maxRetries < 0) {
    throw new TypeError(`extract: maxRetries must be a whole number ≥ 0, got ${String(options.maxRetries)}.`);
  }
  const call: CallOptions = {
    client,
    clientRegistry: options.clientRegistry,
    collector: options.collector,
    signal: options.signal,
    outputMode: options.outputMode,
    parseRecovery: { reask: maxRetries },
    validateOutput: async (value, answer) =>
      schema.validate(
        schema.adaptFinal === undefined ? value : schema.adaptFinal(value, answer.repairs, answer.text),
      ),
  };
  return {
    runtime,
    args: { instructions: options.instructions ?? null, messages: conversation(options) },
    call,
  };
}

/** Runs the extraction and resolves the validated value. */
export async function extractTyped<Value>(schema: TypedSchema, options: ExtractOptions): Promise<Value> {
  const { runtime, args, call } = await prepare(schema, options);
  return (await runtime.call(EXTRACT_FUNCTION, args, call)) as Value;
}

/** Streams the extraction: typed partials, then `final()`. Partials of a re-asked answer start over. */
export function extractTypedStream<Value>(
  schema: TypedSchema,
  options: ExtractOptions,
): ExtractStream<Value> {
  const started = prepare(schema, options).then(({ runtime, args, call }) =>
    runtime.stream(EXTRACT_FUNCTION, args, call),
  );
  // Nobody may ever ask for the value; its failure is still seen by whoever iterates or awaits.
  started.catch(() => {});
  return {
    final: async () => (await (await started).getFinalResponse()) as Value,
    async *[Symbol.asyncIterator]() {
      for await (const partial of await started) {
        yield (
          schema.adaptPartial === undefined ? partial : schema.adaptPartial(partial)
        ) as PartialOf<Value>;
      }
    },
  };
}
