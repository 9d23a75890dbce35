/**
 * The mock switch of `sapling dev`: a `fetch` that sends every provider request to the built-in mock LLM
 * server instead, keeping its path (`/v1/chat/completions`, `/v1/messages`, `…:streamGenerateContent`, which
 * the mock answers in each provider's wire format), so the project's clients, fallbacks and retry policies
 * run unchanged. Each request is tagged with its run, so the mock serves each run its own answers.
 */

import type { ConfigValue, Ir } from "../ir/index.js";
import { providerDefinitions, resolveProviderName } from "../provider-table/index.js";

/** The header that tells the mock server which run a request belongs to. */
export const DEV_RUN_HEADER = "x-sapling-dev-run";

/** What the mock answers one attempt with. */
export type DevMockAnswer =
  | { type: "text"; text: string; chunkSize: number; chunkDelayMs: number }
  | { type: "http-error"; status: number; message: string };

/** The mock LLM server as `sapling dev` sees it (the CLI starts it; the testing room implements it). */
export interface DevMock {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Queues the answers for the requests tagged with `runId`, in order (the last one repeats). */
  queue(runId: string, answers: readonly DevMockAnswer[]): void;
  /** Drops what is left of a run's queue. */
  forget(runId: string): void;
}

/** A `fetch` that reaches `mock` for every URL, tagged with `runId`. */
export function mockFetch(mock: DevMock, runId: string): typeof fetch {
  const target = new URL(mock.url);
  return (input, init) => {
    const original = new Request(input, init);
    const url = new URL(original.url);
    url.protocol = target.protocol;
    url.host = target.host;
    const headers = new Headers(original.headers);
    headers.set(DEV_RUN_HEADER, runId);
    return globalThis.fetch(
      new Request(url, {
        ...init,
        headers,
        method: original.method,
        body: original.body,
        signal: original.signal,
        duplex: "half",
      } as RequestInit),
    );
  };
}

/**
 * The environment a mock run reads `env.NAME` from: a stand-in for every variable the project's clients
 * name and every provider's default key, never the real value, so no key of the developer's reaches even
 * the local mock and no unset variable stops a rehearsal.
 */
export function mockEnvironment(ir: Ir): Record<string, string> {
  const names = new Set<string>();
  // A variable a client reads as its URL (`base_url env.LOCAL_LLM_BASE_URL`, as `sapling init` writes)
  // stands for a URL: mockFetch keeps only its path, so the stand-in is the provider's own default URL
  // (its path is what the mock answers), or an OpenAI-compatible `/v1` for providers without one.
  const urls = new Map<string, string>();
  for (const definition of Object.values(providerDefinitions))
    if (definition.apiKeyEnv) names.add(definition.apiKeyEnv);
  const visit = (value: ConfigValue): void => {
    if (value.kind === "env") names.add(value.name);
    else if (value.kind === "array") value.items.forEach(visit);
    else if (value.kind === "map") Object.values(value.entries).forEach(visit);
  };
  for (const client of ir.clients) {
    for (const [key, value] of Object.entries(client.options)) {
      visit(value);
      if (value.kind === "env" && /url$/i.test(key)) urls.set(value.name, standInUrl(client.provider));
    }
  }
  return Object.fromEntries([...names].map((name) => [name, urls.get(name) ?? `mock-${name.toLowerCase()}`]));
}

/** A URL whose path the mock answers for `provider` (its host is replaced by the mock's anyway). */
function standInUrl(provider: string): string {
  const name = resolveProviderName(provider);
  const known = name === undefined ? undefined : providerDefinitions[name]?.defaultBaseUrl;
  return known ?? "http://mock.sapling.invalid/v1";
}
