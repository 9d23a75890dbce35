/**
 * Gemini on Google Cloud Vertex AI: the Gemini wire format (shared with `google-ai`) at a project's
 * `…/projects/{project}/locations/{location}/publishers/google/models/{model}:generateContent`, authorized by
 * an OAuth bearer token minted from a service-account key. Claude models (`anthropic_version`, or a model
 * named `claude…`) speak the Anthropic format at `…/publishers/anthropic/models/{model}:rawPredict`.
 * Credentials are looked up in BAML's order: `credentials` (a JSON object or a JSON string),
 * `credentials_content`, then the environment's
 * `GOOGLE_APPLICATION_CREDENTIALS` (JSON content or a key file path) and
 * `GOOGLE_APPLICATION_CREDENTIALS_CONTENT`. A request that
 * already carries an `authorization` header, the `authorization` option (an access token) or an API key
 * (`api_key`, `query_params { key … }`: Vertex express mode) is sent as it is.
 *
 * A key file *path* (in `credentials` or `GOOGLE_APPLICATION_CREDENTIALS`) is read at `authorize` time
 * through the injected `readTextFile` (this room is browser-safe and imports no file system; Node hosts
 * inject one). Without a reader a path fails with a message saying what to pass instead, and
 * `GOOGLE_APPLICATION_CREDENTIALS_CONTENT` is preferred over a `GOOGLE_APPLICATION_CREDENTIALS` path. When the
 * project comes from a key file, the URL is finished once the file is read (`authorize` runs before any
 * request is sent or shown). Application default credentials (gcloud, the metadata server) are not looked up.
 */

import type {
  AuthorizeContext,
  ClientOptions,
  MediaUrlMode,
  ProviderAdapter,
  ProviderAdapterKit,
  ProviderRequest,
  ReadTextFile,
} from "../llm/index.js";
import { raceAbort } from "../llm/index.js";
import { LlmAbortError, LlmOptionsError } from "../provider-helpers/index.js";
import type { MediaKind } from "../util/index.js";
import {
  readServiceAccountKey,
  type ServiceAccountKey,
  type ServiceAccountTokenCache,
  sharedServiceAccountTokenCache,
} from "./google-service-account-token.js";
import { loadServiceAccountKeyFile } from "./service-account-key-file.js";
import { createVertexAnthropicAdapter, vertexAnthropicVersion } from "./vertex-anthropic-adapter.js";

export interface VertexAiAdapterSettings {
  provider: string;
  /** The environment, for `GOOGLE_APPLICATION_CREDENTIALS` / `GOOGLE_APPLICATION_CREDENTIALS_CONTENT`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Defaults to the process-wide cache, so tokens outlive the per-call model. */
  tokenCache?: ServiceAccountTokenCache;
  /** Reads key files named by path; absent (browsers, edge workers): a path is refused. */
  readTextFile?: ReadTextFile;
  /** Gemini's and Anthropic's wire formats, which Vertex AI speaks (the `llm` room hands them over). */
  kit: ProviderAdapterKit;
}

type Credential =
  | { type: "service-account"; key: ServiceAccountKey }
  /** A key file path, read through `readTextFile` when the first request is authorized. */
  | { type: "service-account-file"; path: string; source: string; readTextFile: ReadTextFile }
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
  const credential = resolveCredential(options, settings.env ?? {}, provider, text, settings.readTextFile);
  let modelsUrl = options.baseUrl;
  // Set when the project id is in a key file not read yet: the URL is built around a placeholder project,
  // and `authorize` puts the key's project there.
  let modelsUrlFor: ((projectId: string) => string) | undefined;
  if (modelsUrl === undefined) {
    const location =
      text("location") ??
      fail("location", 'is required for vertex-ai (e.g. location "us-central1"), or give base_url.');
    const host =
      location === "global" ? "aiplatform.googleapis.com" : `${location}-aiplatform.googleapis.com`;
    const urlFor = (projectId: string): string =>
      `https://${host}/v1/projects/${encodeURIComponent(projectId)}/locations/${encodeURIComponent(location)}/publishers/${publisher}/models`;
    const projectId =
      text("project_id") ?? (credential.type === "service-account" ? credential.key.projectId : undefined);
    if (projectId !== undefined) modelsUrl = urlFor(projectId);
    else if (credential.type === "service-account-file") {
      modelsUrlFor = urlFor;
      modelsUrl = urlFor(pendingProjectId);
    } else {
      modelsUrl = fail(
        "project_id",
        'is required: the credentials name no project_id (e.g. project_id "my-project").',
      );
    }
  }
  const wire: ProviderAdapter =
    anthropicVersion === undefined
      ? {
          ...settings.kit.createGoogleGenerateContentAdapter(options, modelsUrl, modelsUrl),
          // BAML sends Vertex media URLs as `file_data` with their MIME type; Vertex fetches gs:// and https.
          defaultMediaUrlMode: (_kind: MediaKind): MediaUrlMode => "send_url_add_mime_type",
        }
      : createVertexAnthropicAdapter(settings.kit, options, { model, modelsUrl, anthropicVersion });
  const tokenCache = settings.tokenCache ?? sharedServiceAccountTokenCache;
  return {
    ...wire,
    async authorize(request: ProviderRequest, context: AuthorizeContext): Promise<ProviderRequest> {
      if (credential.type === "as-built") return request;
      if (credential.type === "access-token") {
        return { ...request, headers: { ...request.headers, authorization: credential.token } };
      }
      const signal = context.signal;
      const waitFor = <T>(pending: Promise<T>): Promise<T> =>
        signal === undefined
          ? pending
          : raceAbort(pending, signal, (reason) => new LlmAbortError(reason, { provider }));
      let key: ServiceAccountKey;
      let url = request.url;
      if (credential.type === "service-account-file") {
        key = await waitFor(
          loadServiceAccountKeyFile(credential.path, credential.source, credential.readTextFile, provider),
        );
        if (modelsUrlFor !== undefined) {
          const projectId =
            key.projectId ??
            fail(
              "project_id",
              `is required: the key file ${JSON.stringify(credential.path)} names no project_id (e.g. project_id "my-project").`,
            );
          const pendingPrefix = modelsUrlFor(pendingProjectId);
          if (url.startsWith(pendingPrefix)) url = modelsUrlFor(projectId) + url.slice(pendingPrefix.length);
        }
      } else key = credential.key;
      // The token request is shared with other callers: a caller who aborts stops waiting, not the request.
      const token = await waitFor(tokenCache.accessToken(key, { fetch: context.fetch, provider }));
      return { ...request, url, headers: { ...request.headers, authorization: `Bearer ${token}` } };
    },
  };
}

/** Stands in for the project id of a key file not read yet; never sent (`authorize` replaces it). */
const pendingProjectId = "{project_id from the key file}";

function resolveCredential(
  options: ClientOptions,
  env: Readonly<Record<string, string | undefined>>,
  provider: string,
  text: (name: string) => string | undefined,
  readTextFile: ReadTextFile | undefined,
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
  const filePath = (path: string, source: string): Credential =>
    readTextFile === undefined
      ? fail(
          source,
          "looks like a file path, and this host cannot read files (key file paths work on Node: the runtime and the sapling CLI read them). Here, pass the key file's JSON content instead (credentials_content env.MY_KEY_JSON, or the JSON in the GOOGLE_APPLICATION_CREDENTIALS_CONTENT environment variable), or SaplingRuntime.fromIr(ir, { readTextFile }).",
        )
      : { type: "service-account-file", path, source, readTextFile };
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
    return looksLikeJson(credentials)
      ? fromJson(credentials, "credentials")
      : filePath(credentials, "credentials");
  }
  if (credentialsContent !== undefined) return fromJson(credentialsContent, "credentials_content");
  const hasApiKey =
    options.apiKey !== undefined || "key" in options.queryParams || headerNames.includes("x-goog-api-key");
  if (hasApiKey) return { type: "as-built" };
  const applicationCredentials = env.GOOGLE_APPLICATION_CREDENTIALS ?? "";
  if (looksLikeJson(applicationCredentials))
    return fromJson(applicationCredentials, "GOOGLE_APPLICATION_CREDENTIALS");
  // BAML reads the file GOOGLE_APPLICATION_CREDENTIALS names before the content variable; a host that
  // cannot read files uses the content variable when it is set.
  if (applicationCredentials !== "" && readTextFile !== undefined)
    return filePath(applicationCredentials, "GOOGLE_APPLICATION_CREDENTIALS");
  const content = env.GOOGLE_APPLICATION_CREDENTIALS_CONTENT;
  if (content !== undefined && content !== "")
    return fromJson(content, "GOOGLE_APPLICATION_CREDENTIALS_CONTENT");
  if (applicationCredentials !== "")
    return filePath(applicationCredentials, "GOOGLE_APPLICATION_CREDENTIALS");
  return fail(
    "credentials",
    "no credentials found. Set credentials (a service-account key as a JSON object or string, or on Node its file path), credentials_content, the GOOGLE_APPLICATION_CREDENTIALS environment variable (on Node, the key file path) or GOOGLE_APPLICATION_CREDENTIALS_CONTENT (the key file's JSON); or use an API key (query_params { key env.VERTEX_API_KEY }). Application default credentials (gcloud, the metadata server) are not read by Sapling.",
  );
}

function looksLikeJson(text: string): boolean {
  return text.trimStart().startsWith("{");
}
