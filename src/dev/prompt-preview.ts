import type { Ir, LlmFunction } from "../ir/index.js";
import { type PromptClient, renderOutputFormat, renderPrompt, toJsonSchema } from "../prompt/index.js";
import type { SaplingRuntime } from "../runtime/index.js";
import type { ChatMessage } from "../util/index.js";
import type { DevMessageView, DevPartView, DevPromptPreview } from "./dev-api.js";
import { formatCurl } from "./format-curl.js";

/** Counts a text's tokens per encoding (`o200k_base`, …); absent when the tokenizer is not installed. */
export type DevTokenCounter = (text: string) => Record<string, number>;

/**
 * The prompt preview: the function's messages rendered for `client` with the stretches `ctx.output_format`
 * wrote marked, token counts per message and in total, the schema's tokens beside its JSON Schema
 * equivalent, and the provider request as cURL with keys masked.
 */
export async function previewPrompt(options: {
  ir: Ir;
  fn: LlmFunction;
  args: Record<string, unknown>;
  client: PromptClient;
  /** Builds the provider request (the runtime the run would use). */
  runtime: SaplingRuntime;
  clientOverride?: string;
  countTokens?: DevTokenCounter;
}): Promise<DevPromptPreview> {
  const { ir, fn, args, client, countTokens } = options;
  const outputFormats: string[] = [];
  const messages = renderPrompt(ir, fn.name, args, {
    client,
    onOutputFormat: (text) => outputFormats.push(text),
  });
  const views = messages.map((message) => messageView(message, outputFormats, countTokens));
  const schemaText = renderOutputFormat(ir, fn.returnType, {});
  const jsonSchema = JSON.stringify(toJsonSchema(ir, fn.returnType));
  let curl = "";
  let curlError: string | undefined;
  try {
    const request = await options.runtime.buildRequest(
      fn.name,
      args,
      { stream: true },
      options.clientOverride ? { client: options.clientOverride } : {},
    );
    curl = formatCurl(request);
  } catch (error) {
    curlError = error instanceof Error ? error.message : String(error);
  }
  return {
    client: { name: client.name, provider: client.provider },
    messages: views,
    totalTokens: countTokens ? sumCounts(views.map((view) => view.tokens ?? {})) : null,
    schema: {
      text: schemaText,
      tokens: countTokens ? countTokens(schemaText) : null,
      jsonSchemaTokens: countTokens ? countTokens(jsonSchema) : null,
    },
    curl,
    ...(curlError !== undefined ? { curlError } : {}),
  };
}

function messageView(
  message: ChatMessage,
  outputFormats: readonly string[],
  countTokens: DevTokenCounter | undefined,
): DevMessageView {
  const parts = message.parts.map((part): DevPartView => {
    if (part.type === "text")
      return { type: "text", text: part.text, outputFormat: findAll(part.text, outputFormats) };
    const media = part.media;
    return {
      type: "media",
      kind: media.type,
      mediaType: media.mediaType ?? "",
      ...(media.url !== undefined ? { url: media.url } : {}),
      ...(media.base64 !== undefined ? { base64Length: media.base64.length } : {}),
    };
  });
  const text = message.parts.map((part) => (part.type === "text" ? part.text : "")).join("");
  return { role: message.role, parts, tokens: countTokens ? countTokens(text) : null };
}

/** Where each rendered `ctx.output_format` text occurs in `text` (a trimmed message keeps it whole). */
function findAll(text: string, needles: readonly string[]): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = [];
  for (const needle of new Set(needles)) {
    if (needle === "") continue;
    for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length))
      spans.push({ start: at, end: at + needle.length });
  }
  return spans.sort((left, right) => left.start - right.start);
}

function sumCounts(counts: readonly Record<string, number>[]): Record<string, number> {
  const total: Record<string, number> = {};
  for (const count of counts)
    for (const [encoding, value] of Object.entries(count)) total[encoding] = (total[encoding] ?? 0) + value;
  return total;
}
