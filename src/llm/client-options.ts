/**
 * The options every provider understands, read and validated once when a model is created. Whatever a
 * provider does not consume passes through into the request body unchanged (BAML's rule), so new provider
 * parameters work without a Sapling release.
 */

import { LlmOptionsError } from "../provider-helpers/index.js";
import { commonKeys } from "../provider-table/index.js";
import type { MediaKind } from "../util/index.js";
import type { FinishReasonPolicy } from "./finish-reason-policy.js";
import type { OutputMode } from "./language-model.js";
import { hasUserInfo, redactUrl } from "./redact.js";

/** How a media value given by URL is sent (`media_url_handler`). */
export type MediaUrlMode =
  | "send_base64"
  | "send_url"
  | "send_url_add_mime_type"
  | "send_base64_unless_google_url";

/** Role names, default role, remapping and which message metadata may be forwarded. */
export interface RolePolicy {
  allowedRoles: readonly string[];
  defaultRole: string;
  remapRoles: Readonly<Record<string, string>>;
  /** `"all"`, `"none"`, or the metadata keys to forward (e.g. `["cache_control"]`). */
  allowedRoleMetadata: "all" | "none" | readonly string[];
}

/** The client's `http { … }` block, in milliseconds; an absent or zero value means no limit. */
export interface HttpTimeouts {
  connectTimeoutMs?: number;
  requestTimeoutMs?: number;
  timeToFirstTokenTimeoutMs?: number;
  idleTimeoutMs?: number;
  totalTimeoutMs?: number;
}

export interface ClientOptions {
  baseUrl: string | undefined;
  apiKey: string | undefined;
  model: string | undefined;
  headers: Record<string, string>;
  queryParams: Record<string, string>;
  rolePolicy: RolePolicy;
  supportsStreaming: boolean;
  finishReasonPolicy: FinishReasonPolicy;
  http: HttpTimeouts;
  mediaUrlHandler: Partial<Record<MediaKind, MediaUrlMode>>;
  /** `output_mode`: how structured answers are asked for (absent: the call decides, default `prompt`). */
  outputMode: OutputMode | undefined;
  /** Options no one consumed: merged into the request body. */
  passthrough: Record<string, unknown>;
  /** Provider-specific options the adapter asked for (`resource_name`, `api_version`, …). */
  extra: Record<string, unknown>;
}

const outputModes: readonly OutputMode[] = ["prompt", "tools", "native"];

const mediaUrlModes = ["send_base64", "send_url", "send_url_add_mime_type", "send_base64_unless_google_url"];
const timeoutKeys: Record<string, keyof HttpTimeouts> = {
  connect_timeout_ms: "connectTimeoutMs",
  request_timeout_ms: "requestTimeoutMs",
  time_to_first_token_timeout_ms: "timeToFirstTokenTimeoutMs",
  idle_timeout_ms: "idleTimeoutMs",
  total_timeout_ms: "totalTimeoutMs",
};

export interface ReadOptionsSettings {
  provider: string;
  /** Provider-specific keys consumed by the adapter (collected into `extra`). */
  extraKeys: readonly string[];
  /** Keys consumed but still sent in the body (e.g. `model` for OpenAI). */
  modelInBody: boolean;
  defaultAllowedRoles?: readonly string[];
  defaultRole?: string;
  supportsStreamingByDefault?: boolean;
}

/** Validates and splits raw (env-resolved) options; throws `LlmOptionsError` naming the bad option. */
export function readClientOptions(
  options: Record<string, unknown>,
  settings: ReadOptionsSettings,
): ClientOptions {
  const fail = (option: string, detail: string): never => {
    throw new LlmOptionsError(option, detail, { provider: settings.provider });
  };
  const string = (key: string): string | undefined => {
    const value = options[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== "string") fail(key, `expected a string, got ${JSON.stringify(value)}.`);
    return value as string;
  };
  const stringList = (key: string): string[] | undefined => {
    const value = options[key];
    if (value === undefined || value === null) return undefined;
    if (!Array.isArray(value) || value.some((item) => typeof item !== "string")) {
      fail(key, `expected a list of strings, got ${JSON.stringify(value)}.`);
    }
    return value as string[];
  };
  const stringMap = (key: string): Record<string, string> => {
    const value = options[key];
    if (value === undefined || value === null) return {};
    if (typeof value !== "object" || Array.isArray(value)) fail(key, "expected a map of strings.");
    const result: Record<string, string> = {};
    for (const [name, entry] of Object.entries(value as Record<string, unknown>)) {
      if (typeof entry === "string") result[name] = entry;
      else if (typeof entry === "number" || typeof entry === "boolean") result[name] = String(entry);
      else fail(`${key}.${name}`, `expected a string, got ${JSON.stringify(entry)}.`);
    }
    return result;
  };

  const allowedRoles = stringList("allowed_roles") ??
    settings.defaultAllowedRoles ?? ["system", "user", "assistant"];
  // The provider's default applies where the allowed roles admit it; a `default_role` outside them fails.
  const providerDefault = allowedRoles.includes(settings.defaultRole ?? "")
    ? settings.defaultRole
    : undefined;
  const defaultRole =
    string("default_role") ??
    providerDefault ??
    (allowedRoles.includes("user") ? "user" : (allowedRoles[0] ?? "user"));
  if (!allowedRoles.includes(defaultRole)) {
    fail("default_role", `"${defaultRole}" is not in allowed_roles [${allowedRoles.join(", ")}].`);
  }
  const metadataOption = options.allowed_role_metadata;
  let allowedRoleMetadata: RolePolicy["allowedRoleMetadata"] = "none";
  if (metadataOption === "all" || metadataOption === "none") allowedRoleMetadata = metadataOption;
  else if (metadataOption !== undefined && metadataOption !== null) {
    allowedRoleMetadata = stringList("allowed_role_metadata") ?? "none";
  }

  const streamingOption = options.supports_streaming;
  if (streamingOption !== undefined && streamingOption !== null && typeof streamingOption !== "boolean") {
    fail("supports_streaming", "expected true or false.");
  }

  const http: HttpTimeouts = {};
  const httpOption = options.http;
  if (httpOption !== undefined && httpOption !== null) {
    if (typeof httpOption !== "object" || Array.isArray(httpOption))
      fail("http", "expected a map of timeouts.");
    for (const [key, value] of Object.entries(httpOption as Record<string, unknown>)) {
      const field = timeoutKeys[key];
      if (field === undefined)
        fail(`http.${key}`, `unknown timeout; use one of ${Object.keys(timeoutKeys).join(", ")}.`);
      else if (typeof value !== "number" || value < 0 || !Number.isFinite(value)) {
        fail(`http.${key}`, `expected a non-negative number of milliseconds, got ${JSON.stringify(value)}.`);
      } else if (value > 0) http[field] = value;
    }
  }

  const mediaUrlHandler: Partial<Record<MediaKind, MediaUrlMode>> = {};
  for (const [kind, mode] of Object.entries(stringMap("media_url_handler"))) {
    if (!["image", "audio", "pdf", "video"].includes(kind))
      fail(`media_url_handler.${kind}`, "expected image, audio, pdf or video.");
    if (!mediaUrlModes.includes(mode))
      fail(`media_url_handler.${kind}`, `expected one of ${mediaUrlModes.join(", ")}.`);
    mediaUrlHandler[kind as MediaKind] = mode as MediaUrlMode;
  }

  const outputMode = string("output_mode");
  if (outputMode !== undefined && !(outputModes as readonly string[]).includes(outputMode)) {
    fail(
      "output_mode",
      `expected one of ${outputModes.map((mode) => `"${mode}"`).join(", ")}, got "${outputMode}".`,
    );
  }

  const consumed = new Set([...commonKeys, ...settings.extraKeys]);
  if (!settings.modelInBody) consumed.add("model");
  const passthrough: Record<string, unknown> = {};
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    if (settings.extraKeys.includes(key)) extra[key] = value;
    else if (!consumed.has(key) && value !== undefined) passthrough[key] = value;
  }
  if (settings.modelInBody && passthrough.model !== undefined && typeof passthrough.model !== "string") {
    fail("model", "expected a string.");
  }

  const baseUrl = string("base_url");
  if (baseUrl !== undefined && hasUserInfo(baseUrl)) {
    // Such a URL would be printed in every error, log line and span that names where the call went.
    fail(
      "base_url",
      `${redactUrl(baseUrl)} carries a user name or password (user:password@host). Remove it from the ` +
        'URL and send the credential in a header instead, e.g. headers { "Authorization" env.MY_TOKEN } ' +
        "(or api_key env.MY_KEY for a bearer key).",
    );
  }

  return {
    baseUrl: baseUrl?.replace(/\/+$/, ""),
    apiKey: string("api_key"),
    model: string("model"),
    headers: stringMap("headers"),
    queryParams: stringMap("query_params"),
    rolePolicy: { allowedRoles, defaultRole, remapRoles: stringMap("remap_roles"), allowedRoleMetadata },
    supportsStreaming:
      (streamingOption as boolean | undefined) ?? settings.supportsStreamingByDefault ?? true,
    finishReasonPolicy: {
      ...(stringList("finish_reason_allow_list")
        ? { allowList: stringList("finish_reason_allow_list") }
        : {}),
      ...(stringList("finish_reason_deny_list") ? { denyList: stringList("finish_reason_deny_list") } : {}),
    },
    http,
    mediaUrlHandler,
    outputMode: outputMode as OutputMode | undefined,
    passthrough,
    extra,
  };
}
