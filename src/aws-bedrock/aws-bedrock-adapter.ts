/**
 * `aws-bedrock`: the Bedrock Runtime Converse API (`POST /model/{modelId}/converse`, and
 * `/converse-stream` answering in the binary AWS event stream), signed with SigV4 (service `bedrock`).
 * Options as in BAML: `model` or `model_id`, `region`, `access_key_id` / `secret_access_key` /
 * `session_token`, `endpoint_url`, `inference_configuration { max_tokens temperature top_p stop_sequences }`,
 * `additional_model_request_fields`. Other options pass into the body (`guardrailConfig`, `toolConfig`, …).
 *
 * Credentials come from the options, a `profile` option, the environment (`AWS_ACCESS_KEY_ID`,
 * `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`), then the `AWS_PROFILE` (else `default`) profile of the
 * shared files (see `resolveCredentialSource`); the region from `region`, `AWS_REGION`,
 * `AWS_DEFAULT_REGION`, then the profile in the config file. The `llm` room runs in browsers too and
 * imports no file system: profiles are read through the host's `readTextFile` when the first request is
 * authorized, and without one they fail with a message naming what to pass instead. SSO, assumed roles and
 * instance roles are not supported. A request that carries an `authorization` header, or `api_key` (a
 * Bedrock API key, sent as a bearer token), is sent unsigned.
 */

import type {
  ClientOptions,
  MediaUrlMode,
  ProviderAdapter,
  ProviderRequest,
  ReadTextFile,
} from "../llm/index.js";
import { LlmOptionsError, mergeHeaders, withQuery } from "../provider-helpers/index.js";
import type { ChatMessage, MediaKind } from "../util/index.js";
import { type CredentialSource, passKeys, resolveCredentialSource } from "./aws-credential-source.js";
import { awsProfileCredentials } from "./aws-profile-credentials.js";
import { awsSharedFilePaths, loadAwsSharedProfile } from "./aws-shared-config-files.js";
import { type AwsCredentials, signAwsRequest } from "./aws-sigv4.js";
import {
  createConverseStreamDecoder,
  createConverseStreamReader,
  parseConverseResponse,
  toConverseMessages,
} from "./bedrock-converse-format.js";
import { bedrockReasoning } from "./bedrock-reasoning.js";
import { bedrockToolCalls } from "./bedrock-tool-calls.js";

export interface AwsBedrockAdapterSettings {
  provider: string;
  /** The environment, for credentials and region. */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Reads the AWS shared credentials and config files (profiles); hosts that can read files pass one
   * (the runtime does on Node). Without it profiles are refused with what to pass instead.
   */
  readTextFile?: ReadTextFile;
  /** The signing clock (tests). */
  now?: () => Date;
}

/** `inference_configuration` keys (BAML's snake case) → Converse `inferenceConfig` fields. */
const inferenceFields: Record<string, { field: string; type: "integer" | "number" | "strings" }> = {
  max_tokens: { field: "maxTokens", type: "integer" },
  temperature: { field: "temperature", type: "number" },
  top_p: { field: "topP", type: "number" },
  stop_sequences: { field: "stopSequences", type: "strings" },
};

export function createAwsBedrockAdapter(
  options: ClientOptions,
  settings: AwsBedrockAdapterSettings,
): ProviderAdapter {
  const { provider } = settings;
  const env = settings.env ?? {};
  const fail = (option: string, detail: string): never => {
    throw new LlmOptionsError(option, detail, { provider });
  };
  const text = (name: string): string | undefined => {
    const value = options.extra[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== "string" || value === "") return fail(name, "expected a non-empty string.");
    return value;
  };
  const environment = (name: string): string | undefined => {
    const value = env[name];
    return value === undefined || value === "" ? undefined : value;
  };

  const modelId = text("model_id");
  if (modelId !== undefined && options.model !== undefined && modelId !== options.model) {
    fail("model_id", "both model and model_id are set; keep only one.");
  }
  const model =
    options.model ??
    modelId ??
    fail("model", 'is required for aws-bedrock (e.g. model "anthropic.claude-3-5-haiku-20241022-v1:0").');
  const knownRegion = text("region") ?? environment("AWS_REGION") ?? environment("AWS_DEFAULT_REGION");
  const regionHelp =
    'set region "us-east-1" in the client options, or the AWS_REGION (or AWS_DEFAULT_REGION) environment variable';
  const readTextFile = settings.readTextFile;
  if (knownRegion === undefined && readTextFile === undefined) {
    fail(
      "region",
      `is required for aws-bedrock: ${regionHelp} (on Node, the region of an AWS profile in ~/.aws/config is read too).`,
    );
  }
  const headerNames = Object.keys(options.headers).map((name) => name.toLowerCase());
  const unsigned = options.apiKey !== undefined || headerNames.includes("authorization");
  const credentialSource: CredentialSource = unsigned
    ? { type: "unsigned" }
    : resolveCredentialSource(text, environment, readTextFile !== undefined, fail);
  const profileOption = text("profile");
  const awsProfile = environment("AWS_PROFILE");
  const profileName = profileOption ?? awsProfile ?? "default";
  const profileOrigin = profileOption === undefined && awsProfile !== undefined ? " (from AWS_PROFILE)" : "";
  const paths = awsSharedFilePaths(environment);
  const inferenceConfig = readInferenceConfiguration(options.extra.inference_configuration, fail);
  const additional = options.extra.additional_model_request_fields;
  if (additional !== undefined && additional !== null && !isPlainObject(additional)) {
    fail("additional_model_request_fields", "expected a map (e.g. { top_k 40 }).");
  }
  const endpoint = (
    text("endpoint_url") ??
    options.baseUrl ??
    `https://bedrock-runtime.${knownRegion ?? pendingRegion}.amazonaws.com`
  ).replace(/\/+$/, "");
  const now = settings.now ?? (() => new Date());

  return {
    modelId: model,
    // Converse takes media as bytes (or s3:// locations); it never downloads an https URL itself.
    defaultMediaUrlMode: (_kind: MediaKind): MediaUrlMode => "send_base64",
    buildRequest(messages: readonly ChatMessage[], stream: boolean): ProviderRequest {
      const converse = toConverseMessages(messages, provider);
      const body: Record<string, unknown> = { ...options.passthrough, messages: converse.messages };
      if (converse.system.length > 0) body.system = converse.system;
      if (inferenceConfig !== undefined) body.inferenceConfig = inferenceConfig;
      if (isPlainObject(additional)) body.additionalModelRequestFields = additional;
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (options.apiKey !== undefined) headers.authorization = `Bearer ${options.apiKey}`;
      const operation = stream ? "converse-stream" : "converse";
      return {
        url: withQuery(`${endpoint}/model/${encodeURIComponent(model)}/${operation}`, options.queryParams),
        method: "POST",
        headers: mergeHeaders(headers, options.headers),
        body,
      };
    },
    parseResponse: (body) => parseConverseResponse(body, model),
    toolCalls: bedrockToolCalls,
    reasoning: bedrockReasoning,
    createStreamReader: () => createConverseStreamReader(model),
    createStreamDecoder: createConverseStreamDecoder,
    async authorize(request: ProviderRequest): Promise<ProviderRequest> {
      const needsProfile = credentialSource.type === "profile" || knownRegion === undefined;
      const profile =
        needsProfile && readTextFile !== undefined
          ? await loadAwsSharedProfile(profileName, paths, readTextFile, "profile", provider)
          : undefined;
      let credentials: AwsCredentials | undefined;
      if (credentialSource.type === "static") credentials = credentialSource.credentials;
      else if (credentialSource.type === "profile") {
        if (profile !== undefined) credentials = awsProfileCredentials(profile, paths, "profile", provider);
        else if (profileOption === undefined && awsProfile === undefined) {
          fail(
            "access_key_id",
            `no AWS credentials found: none in the client options or the environment, and no [default] profile in ${JSON.stringify(paths.credentials)} or ${JSON.stringify(paths.config)}. To fix: ${passKeys}, or add a default profile (aws configure).`,
          );
        } else {
          fail(
            "profile",
            `the AWS profile ${JSON.stringify(profileName)}${profileOrigin} is in neither ${JSON.stringify(paths.credentials)} nor ${JSON.stringify(paths.config)}. Add it (aws configure --profile ${profileName}), point AWS_SHARED_CREDENTIALS_FILE or AWS_CONFIG_FILE at the files that have it, or ${passKeys}.`,
          );
        }
      }
      const region =
        knownRegion ??
        profile?.values.region ??
        fail(
          "region",
          `is required for aws-bedrock: ${regionHelp}, or region in the AWS profile ${JSON.stringify(profileName)}${profileOrigin} of ${JSON.stringify(paths.config)}.`,
        );
      let url = request.url;
      const pendingEndpoint = `https://bedrock-runtime.${pendingRegion}.amazonaws.com`;
      if (url.startsWith(pendingEndpoint)) {
        url = `https://bedrock-runtime.${region}.amazonaws.com${url.slice(pendingEndpoint.length)}`;
      }
      if (credentials === undefined) return { ...request, url };
      // The signature covers the exact body bytes: `HttpLanguageModel` sends `JSON.stringify(body)` too.
      const signed = await signAwsRequest(
        { method: request.method, url, headers: request.headers, body: JSON.stringify(request.body) },
        { credentials, region, service: "bedrock", now: now() },
      );
      return { ...request, url, headers: signed.headers };
    },
  };
}

/** Stands in for a region an AWS profile gives, not read yet; never sent (`authorize` replaces it). */
const pendingRegion = "{region from the AWS profile}";

function readInferenceConfiguration(
  value: unknown,
  fail: (option: string, detail: string) => never,
): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isPlainObject(value))
    return fail("inference_configuration", "expected a map (e.g. { max_tokens 1000 }).");
  const config: Record<string, unknown> = {};
  for (const [key, given] of Object.entries(value)) {
    const spec = inferenceFields[key];
    // `max_tokens env.MAX_TOKENS` arrives as a string: a number written in it is read as that number (BAML
    // drops the field silently). Anything else still fails below, naming the option.
    const entry = spec?.type === "integer" || spec?.type === "number" ? numericText(given) : given;
    const option = `inference_configuration.${key}`;
    if (spec === undefined) fail(option, `unknown key; use ${Object.keys(inferenceFields).join(", ")}.`);
    else if (spec.type === "integer" && (!Number.isInteger(entry) || (entry as number) < 1)) {
      fail(option, `expected a positive whole number, got ${JSON.stringify(entry)}.`);
    } else if (spec.type === "number" && (typeof entry !== "number" || !Number.isFinite(entry))) {
      fail(option, `expected a number, got ${JSON.stringify(entry)}.`);
    } else if (
      spec.type === "strings" &&
      (!Array.isArray(entry) || entry.some((item) => typeof item !== "string"))
    ) {
      fail(option, `expected a list of strings, got ${JSON.stringify(entry)}.`);
    } else config[spec.field] = entry;
  }
  return config;
}

/** The number a decimal string spells (`"1024"`, `" 0.5 "`), else the value unchanged. */
function numericText(value: unknown): unknown {
  if (typeof value !== "string" || !/^\s*-?\d+(\.\d+)?([eE][-+]?\d+)?\s*$/.test(value)) return value;
  return Number(value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
