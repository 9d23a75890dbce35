/**
 * Gemini on Google Cloud Vertex AI: the Gemini wire format (shared with `google-ai`) at a project's
 * `…/projects/{project}/locations/{location}/publishers/google/models/{model}:generateContent`, authorized by
 * an OAuth bearer token minted from a service-account key. Claude models (`anthropic_version`, or a model
 * named `claude…`) speak the Anthropic format at `…/publishers/anthropic/models/{model}:rawPredict`.
 * Credentials are looked up in BAML's order: `credentials` (a JSON object or a JSON string),
 * `credentials_content`, then the environment's
 * `GOOGLE_APPLICATION_CREDENTIALS` (JSON content) and `GOOGLE_APPLICATION_CREDENTIALS_CONTENT`. A request that
 * already carries an `authorization` header, the `authorization` option (an access token) or an API key
 * (`api_key`, `query_params { key … }`: Vertex express mode) is sent as it is. Where BAML would read the
 * file `GOOGLE_APPLICATION_CREDENTIALS` names, `GOOGLE_APPLICATION_CREDENTIALS_CONTENT` is used if set.
 *
 * The `llm` room is browser-safe and never reads files: a key file *path* fails with a message saying to
 * pass the file's content. Application default credentials (gcloud, the metadata server) are not looked up.
 */
import type { MediaKind } from "../../util/index.js";
import type { ClientOptions, MediaUrlMode } from "../client-options.js";
import type { HttpRequest } from "../language-model.js";
import { LlmAbortError, LlmOptionsError } from "../llm-error.js";
import { raceAbort } from "../race-abort.js";
import { createGoogleGenerateContentAdapter } from "./google-generate-content-adapter.js";
import {
  readServiceAccountKey,
  type ServiceAccountKey,
  type ServiceAccountTokenCache,
  sharedServiceAccountTokenCache,
} from "./google-service-account-token.js";
import type { AuthorizeContext, ProviderAdapter } from "./provider-adapter.js";
import { createVertexAnthropicAdapter, vertexAnthropicVersion } from "./vertex-anthropic-adapter.js";

/** The `vertex-ai` options consumed here (everything else passes into the body, as in BAML). */
export const vertexAiOptionKeys = [
  "project_id",
  "location",
  "credentials",
  "credentials_content",
  "authorization",
  "anthropic_version",
] as const;

export interface VertexAiAdapterSettings {
  provider: string;
  /** The environment, for `GOOGLE_APPLICATION_CREDENTIALS` / `GOOGLE_APPLICATION_CREDENTIALS_CONTENT`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Defaults to the process-wide cache, so tokens outlive the per-call model. */
  tokenCache?: ServiceAccountTokenCache;
}

type Credential =
  | { type: "service-account"; key: ServiceAccountKey }
  /** An access token given as the `authorization` option. */
  | { type: "access-token"; token: string }
  /** The request is sent as built: an `authorization` header or an API key authorizes it. */
  | { type: "as-built" };

export function createVertexAiAdapter(
  options: ClientOptions,
  settings: VertexAiAdapterSettings,
): ProviderAdapter {
  const { provider } = settings;
  const fail = (option: string, detail: string): never => {
    throw new LlmOptionsError(option, detail, { provider });
  };
  const extra = options.extra;
  const text = (name: string): string | undefined => {
    const value = extra[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== "string" || value === "") return fail(name, "expected a non-empty string.");
    return value;
  };
  const model = options.model ?? fail("model", 'is required for vertex-ai (e.g. model "gemini-2.5-flash").');
  // As in BAML: `anthropic_version`, or a model named claude…, means Claude (publisher anthropic).
  const anthropicVersion =
    text("anthropic_version") ?? (/^claude/i.test(model) ? vertexAnthropicVersion : undefined);
  const publisher = anthropicVersion === undefined ? "google" : "anthropic";
  const credential = resolveCredential(options, settings.env ?? {}, provider, text);
  let modelsUrl = options.baseUrl;
  if (modelsUrl === undefined) {
    const location =
      text("location") ??
      fail("location", 'is required for vertex-ai (e.g. location "us-central1"), or give base_url.');
    const projectId =
      text("project_id") ??
      (credential.type === "service-account" ? credential.key.projectId : undefined) ??
      fail("project_id", 'is required: the credentials name no project_id (e.g. project_id "my-project").');
    const host =
      location === "global" ? "aiplatform.googleapis.com" : `${location}-aiplatform.googleapis.com`;
    modelsUrl = `https://${host}/v1/projects/${encodeURIComponent(projectId)}/locations/${encodeURIComponent(location)}/publishers/${publisher}/models`;
  }
  const wire: ProviderAdapter =
    anthropicVersion === undefined
      ? {
          ...createGoogleGenerateContentAdapter(options, modelsUrl, modelsUrl),
          // BAML sends Vertex media URLs as `file_data` with their MIME type; Vertex fetches gs:// and https.
          defaultMediaUrlMode: (_kind: MediaKind): MediaUrlMode => "send_url_add_mime_type",
        }
      : createVertexAnthropicAdapter(options, model, modelsUrl, anthropicVersion);
  const tokenCache = settings.tokenCache ?? sharedServiceAccountTokenCache;
  return {
    ...wire,
    async authorize(request: HttpRequest, context: AuthorizeContext): Promise<HttpRequest> {
      if (credential.type === "as-built") return request;
      if (credential.type === "access-token") {
        return { ...request, headers: { ...request.headers, authorization: credential.token } };
      }
      // The token request is shared with other callers: a caller who aborts stops waiting, not the request.
      const pending = tokenCache.accessToken(credential.key, { fetch: context.fetch, provider });
      const signal = context.signal;
      const token = await (signal === undefined
        ? pending
        : raceAbort(pending, signal, (reason) => new LlmAbortError(reason, { provider })));
      return { ...request, headers: { ...request.headers, authorization: `Bearer ${token}` } };
    },
  };
}

function resolveCredential(
  options: ClientOptions,
  env: Readonly<Record<string, string | undefined>>,
  provider: string,
  text: (name: string) => string | undefined,
): Credential {
  const fail = (option: string, detail: string): never => {
    throw new LlmOptionsError(option, detail, { provider });
  };
  const fromJson = (json: string, source: string): Credential => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch {
      return fail(source, "is not valid JSON; pass the service-account key file's content.");
    }
    return { type: "service-account", key: readServiceAccountKey(parsed, source, provider) };
  };
  const filePath = (source: string): never =>
    fail(
      source,
      "looks like a file path. Sapling's LLM clients run in browsers too and never read files: pass the key file's JSON content instead (credentials_content env.MY_KEY_JSON, or the JSON in the GOOGLE_APPLICATION_CREDENTIALS_CONTENT environment variable).",
    );
  const headerNames = Object.keys(options.headers).map((name) => name.toLowerCase());

  if (headerNames.includes("authorization")) return { type: "as-built" };
  const accessToken = text("authorization");
  if (accessToken !== undefined) {
    return {
      type: "access-token",
      token: /^bearer /i.test(accessToken) ? accessToken : `Bearer ${accessToken}`,
    };
  }
  const credentials = options.extra.credentials;
  const credentialsContent = text("credentials_content");
  if (credentials !== undefined && credentials !== null) {
    if (credentialsContent !== undefined) {
      fail("credentials", "both credentials and credentials_content are set; keep only one.");
    }
    if (typeof credentials === "object" && !Array.isArray(credentials)) {
      return { type: "service-account", key: readServiceAccountKey(credentials, "credentials", provider) };
    }
    if (typeof credentials !== "string") return fail("credentials", "expected a JSON object or a string.");
    return looksLikeJson(credentials) ? fromJson(credentials, "credentials") : filePath("credentials");
  }
  if (credentialsContent !== undefined) return fromJson(credentialsContent, "credentials_content");
  const hasApiKey =
    options.apiKey !== undefined || "key" in options.queryParams || headerNames.includes("x-goog-api-key");
  if (hasApiKey) return { type: "as-built" };
  const applicationCredentials = env.GOOGLE_APPLICATION_CREDENTIALS ?? "";
  if (looksLikeJson(applicationCredentials))
    return fromJson(applicationCredentials, "GOOGLE_APPLICATION_CREDENTIALS");
  // BAML reads the file GOOGLE_APPLICATION_CREDENTIALS names; Sapling cannot, so the content variable wins.
  const content = env.GOOGLE_APPLICATION_CREDENTIALS_CONTENT;
  if (content !== undefined && content !== "")
    return fromJson(content, "GOOGLE_APPLICATION_CREDENTIALS_CONTENT");
  if (applicationCredentials !== "") filePath("GOOGLE_APPLICATION_CREDENTIALS");
  return fail(
    "credentials",
    "no credentials found. Set credentials (a service-account key as a JSON object or string), credentials_content, or the GOOGLE_APPLICATION_CREDENTIALS_CONTENT environment variable; or use an API key (query_params { key env.VERTEX_API_KEY }). Application default credentials (gcloud, the metadata server) are not read by Sapling.",
  );
}

function looksLikeJson(text: string): boolean {
  return text.trimStart().startsWith("{");
}
