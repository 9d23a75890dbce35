import type { Client } from "../ir/index.js";
import {
  collectSecrets,
  type EnvOptionValue,
  type LanguageModel,
  LlmError,
  loadLanguageModel,
  type MediaUrlPolicy,
  type OutputMode,
  type ProviderExtension,
  type ReadTextFile,
  redactText,
} from "../llm/index.js";
import { type Flag, SapParseError, type StreamPush } from "../sap/index.js";
import type { ChatMessage } from "../util/index.js";
import { answerCompleteness } from "./answer-completeness.js";
import { type AnsweredCall, askModel } from "./ask-model.js";
import type { CallOptions, OutputIssue } from "./call-options.js";
import type { CallRecorder } from "./call-recorder.js";
import {
  BamlClientFinishReasonError,
  BamlClientOptionsError,
  BamlError,
  BamlInvalidArgumentError,
  BamlValidationError,
} from "./errors.js";
import type { FunctionPipeline } from "./function-pipeline.js";
import { promptToText } from "./function-pipeline.js";
import { mapLlmError } from "./map-llm-error.js";
import type { OutputPlan } from "./output-plan.js";
import { outputRequest } from "./output-request.js";
import type { ToolCallUse } from "./read-answer.js";
import { recordingFetch } from "./recording-fetch.js";
import { clientSecrets, type Environment, resolveOptions } from "./resolve-options.js";

export interface AttemptContext {
  pipeline: FunctionPipeline;
  env: Environment;
  fetch: typeof fetch;
  /** Reads credential files given by path (absent: such a path is refused). */
  readTextFile?: ReadTextFile;
  /** Adapters from entry points of their own (`RuntimeOptions.providers`). */
  providers?: readonly ProviderExtension[];
  /** Which media URLs may be used and the download limits (`RuntimeOptions.mediaUrls`). */
  mediaUrls?: MediaUrlPolicy;
  recorder: CallRecorder;
  signal?: AbortSignal;
  /** Opt-in: how many times to re-ask the same client with the parse error before giving up (0: never). */
  reaskOnParseFailure: number;
  /** The call's `validateOutput`: rules the parsed value must also meet (a failure is re-asked too). */
  validateOutput?: CallOptions["validateOutput"];
  /**
   * Streams only: told after every text chunk that the partial may have changed. `read` is the stream
   * parser's read (`PartialParser.read`): it builds the partial now and says whether it changed since its
   * previous read; whoever consumes the stream calls it at its own pace, so chunks nobody reads build no
   * partial.
   */
  onText?: (read: () => StreamPush) => void;
  /** The call's `outputMode` (absent: the client's `output_mode`, else `prompt`). */
  outputMode?: OutputMode;
  /** Told when an answer made tool calls the return type has no room for (they are in the Collector). */
  onUnusedToolCalls?: (clientName: string, names: readonly string[]) => void;
  /**
   * Called as the answer streams (each reasoning or text delta, and when an attempt ends), independent of
   * how partials reach the caller; the runtime passes the call's `FunctionLog` to the user's `onTick`.
   */
  onTick?: () => void;
  /** Told when `onTick` throws (the call goes on). */
  onTickError?: (error: unknown) => void;
  /** Present only when debug logging is on: receives the prompt and the raw answer, secrets removed. */
  debug?: (message: string, fields: Record<string, unknown>) => void;
}

/**
 * One attempt of a call against one leaf client: resolve its options (reading `env` now), build the model,
 * render the prompt for it, ask, check the finish reason, parse. Every HTTP call is recorded; failures are
 * thrown as BAML-named errors with secrets removed. A parse failure is re-asked only when opted in.
 */
export async function runAttempt(
  client: Client,
  context: AttemptContext,
  streaming: boolean,
): Promise<unknown> {
  const { recorder } = context;
  let secrets: string[] = [];
  // Values read from env before a failure (a missing variable) are secrets of the error's message too.
  const fromEnv: EnvOptionValue[] = [];
  let model: LanguageModel;
  let messages: ChatMessage[];
  let plan: OutputPlan;
  // The log entry of the HTTP call in flight; re-asks start new ones, and the fetch hook fills the current.
  let call = recorder.startAttempt(client.name, client.provider, streaming);
  try {
    const options = resolveOptions(client, context.env, fromEnv);
    secrets = clientSecrets(client.provider, options, fromEnv, context.env);
    model = await loadLanguageModel(client.provider, options, {
      fetch: recordingFetch(context.fetch, secrets, (request) => {
        call.httpRequest = request;
      }),
      env: context.env,
      ...(context.readTextFile === undefined ? {} : { readTextFile: context.readTextFile }),
      ...(context.providers === undefined ? {} : { providers: context.providers }),
      ...(context.mediaUrls === undefined ? {} : { mediaUrls: context.mediaUrls }),
    });
    plan = outputPlanFor(model, client, context);
    messages = await context.pipeline.render(
      { name: client.name, provider: client.provider, defaultRole: model.defaultRole },
      plan,
    );
  } catch (error) {
    // Missing env variables and invalid options become client errors (fallback may recover); a template
    // error or a bug is the same for every client, so it propagates unchanged and ends the call.
    if (secrets.length === 0) secrets = collectSecrets({}, fromEnv);
    const reported =
      BamlError.isInstance(error) || LlmError.isInstance(error)
        ? mapLlmError(error, client.name, client.provider, secrets)
        : error;
    const message = reported instanceof Error ? reported.message : String(reported);
    recorder.endAttempt(call, { error: redactText(message, secrets) });
    throw reported;
  }
  for (let round = 0; ; round++) {
    if (round > 0) call = recorder.startAttempt(client.name, client.provider, streaming);
    recorder.setPrompt(call, messages);
    if (context.debug !== undefined) {
      const prompt = redactText(promptToText(messages), secrets);
      context.debug(`prompt for client ${client.name}:\n${prompt}`, { client: client.name, prompt });
    }
    const answer = await askModel({ model, messages, call, client, context, streaming, secrets, plan });
    if (context.debug !== undefined) {
      const raw = redactText(answer.text, secrets);
      context.debug(`raw answer from client ${client.name}:\n${raw}`, {
        client: client.name,
        rawOutput: raw,
        ...(answer.call.reasoning === null ? {} : { reasoning: redactText(answer.call.reasoning, secrets) }),
      });
    }
    recorder.select(answer.call);
    if (!model.isFinishReasonAllowed(answer.rawFinishReason)) {
      throw finishReasonError(answer, client, messages, context, plan);
    }
    try {
      const parsed = context.pipeline.parseFinal(answer, messages, plan);
      recorder.recordRepairs(parsed.repairs, answerCompleteness(answer.finishReason, parsed.repairs));
      recordToolCalls(parsed.toolCalls, answer, client, context);
      if (context.validateOutput === undefined) return parsed.value;
      return await validated(context.validateOutput, parsed.value, answer.text, parsed.repairs, messages);
    } catch (error) {
      if (!BamlValidationError.isInstance(error) || round >= context.reaskOnParseFailure) throw error;
      messages = [...messages, text("assistant", error.rawOutput), text("user", reaskMessage(error))];
    }
  }
}

/**
 * The error for an answer whose finish reason the client rejects. It carries what the answer held so far
 * (parsed as far as it goes) and the fields left incomplete, so a caller that made a cut answer fail can
 * still use the part that was written; the Collector's log records the same.
 */
function finishReasonError(
  answer: AnsweredCall,
  client: Client,
  messages: readonly ChatMessage[],
  context: AttemptContext,
  plan: OutputPlan,
): BamlClientFinishReasonError {
  let partial: { value: unknown } | undefined;
  let completeness = answerCompleteness(answer.finishReason, []);
  try {
    const parsed = context.pipeline.parseFinal(answer, messages, plan);
    partial = { value: parsed.value };
    completeness = answerCompleteness(answer.finishReason, parsed.repairs);
    context.recorder.recordRepairs(parsed.repairs, completeness);
    recordToolCalls(parsed.toolCalls, answer, client, context);
  } catch (error) {
    // Nothing usable was written: the error then has no partial value, only the raw text.
    if (!BamlValidationError.isInstance(error)) throw error;
  }
  const reason = JSON.stringify(answer.rawFinishReason ?? null);
  const cut = completeness.truncated
    ? ` The answer was cut${completeness.incompleteFields.length > 0 ? `; incomplete: ${completeness.incompleteFields.join(", ")}` : ""}` +
      `${partial ? " (what it held is in error.partialValue)" : ""}.`
    : "";
  return new BamlClientFinishReasonError(
    `Client "${client.name}" (${client.provider}) stopped with finish reason ${reason}, ` +
      `which its finish_reason_allow_list / finish_reason_deny_list rejects.${cut}`,
    client.name,
    client.provider,
    answer.rawFinishReason,
    promptToText(messages),
    answer.text,
    { ...completeness, ...(partial ? { partialValue: partial.value } : {}) },
  );
}

/**
 * The output plan of this attempt: the call's `outputMode`, else the client's `output_mode`. A client
 * whose mode cannot serve the return type fails as a misconfigured client (a fallback may recover).
 */
function outputPlanFor(model: LanguageModel, client: Client, context: AttemptContext): OutputPlan {
  const mode = context.outputMode ?? model.outputMode ?? "prompt";
  try {
    const plan = context.pipeline.outputPlan(mode);
    // (Its request is built here, so a return type JSON Schema cannot describe fails before the prompt.)
    outputRequest(plan);
    return plan;
  } catch (error) {
    if (context.outputMode !== undefined || !BamlInvalidArgumentError.isInstance(error)) throw error;
    throw new BamlClientOptionsError(
      `Client "${client.name}" (${client.provider}): output_mode "${mode}": ${error.message}`,
      client.name,
      client.provider,
      "output_mode",
    );
  }
}

/** The answer's tool calls into its log entry and the function's; unused ones are also reported. */
function recordToolCalls(
  uses: readonly ToolCallUse[],
  answer: AnsweredCall,
  client: Client,
  context: AttemptContext,
): void {
  if (uses.length === 0) return;
  context.recorder.recordToolCalls(answer.call, uses);
  const unused = uses.filter((use) => !use.used).map((use) => use.call.name);
  if (unused.length > 0) context.onUnusedToolCalls?.(client.name, unused);
}

function text(role: string, body: string): ChatMessage {
  return { role, parts: [{ type: "text", text: body }] };
}

/** The issues an output validator found, as a `BamlValidationError`'s detail. */
class OutputIssues {
  constructor(readonly issues: readonly OutputIssue[]) {}
  describe(): string {
    return this.issues.map((issue) => `${issuePathText(issue.path)}: ${issue.message}`).join("; ");
  }
}

function issuePathText(path: readonly PropertyKey[]): string {
  return `$${path.map((key) => (typeof key === "number" ? `[${key}]` : `.${String(key)}`)).join("")}`;
}

/** The value the call's validator returns, or a `BamlValidationError` listing what it found wrong. */
async function validated(
  validate: NonNullable<CallOptions["validateOutput"]>,
  value: unknown,
  raw: string,
  repairs: readonly Flag[],
  messages: readonly ChatMessage[],
): Promise<unknown> {
  const outcome = await validate(value, { text: raw, repairs });
  if ("value" in outcome) return outcome.value;
  const issues = new OutputIssues(outcome.issues);
  throw new BamlValidationError(
    `The answer was read, but the value fails the output's validation: ${issues.describe()}.`,
    promptToText(messages),
    raw,
    issues,
  );
}

/** What the model is told when re-asked: where its answer failed, in the parser's terms, not the developer's. */
function reaskMessage(error: BamlValidationError): string {
  const detail = error.detail;
  if (detail instanceof OutputIssues) {
    return (
      `Your previous answer does not meet these rules: ${detail.describe()}.\n` +
      "Answer again with the complete answer in the requested format, corrected, and nothing else."
    );
  }
  const problem = SapParseError.isInstance(detail)
    ? `at ${detail.path}, expected ${detail.expected} but found ${detail.found}${detail.detail ? ` (${detail.detail})` : ""}`
    : error.message;
  return (
    `Your previous answer could not be read: ${problem}.\n` +
    "Answer again with the complete answer in the requested format, and nothing else."
  );
}
