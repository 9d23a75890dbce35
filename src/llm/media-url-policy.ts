/**
 * Which media URLs a call may use, and how much of one it may download. A server that takes arguments from
 * strangers (`sapling serve`, `sapling dev`) must not become their way into its own network: with
 * `allowedHosts` set, a URL is used only when its host is listed, and a listed pattern (`*`, `*.cdn.com`)
 * never reaches a loopback, private, link-local or metadata address, checked after DNS resolution and again
 * on every redirect. The size and time limits apply to every download, policy or not.
 */

import { LlmMediaError } from "../provider-helpers/index.js";
import { blockedAddressKind, isIpAddress } from "./blocked-address.js";

export interface MediaUrlPolicy {
  /**
   * Hosts whose media URLs may be used (downloaded, or passed on to the provider): `example.com` (that
   * host, any port), `example.com:8443` (that port only), `*.example.com` (its subdomains), `*` (any
   * public host). A host matched only by a pattern must resolve to public addresses; a host listed by
   * name or address is trusted as written, private or not. Absent: no host check (plain library use).
   * An empty list refuses every media URL (`data:` URLs are never fetched, so they always pass).
   */
  allowedHosts?: readonly string[];
  /**
   * The addresses a host name resolves to (Node: `dns.promises.lookup(host, { all: true })`). Needed to
   * check hosts matched by a pattern; without it such a host is refused, since its address is unknown.
   * The room has no DNS of its own (it runs in browsers), so the host passes one.
   */
  resolveHost?: (hostname: string) => Promise<readonly string[]>;
  /** Largest download in bytes (default 32 MiB); a larger body is cut off and the call fails. */
  maxBytes?: number;
  /** Longest a download may take, headers and body, in milliseconds (default 30,000). */
  timeoutMs?: number;
  /** Redirects followed before giving up (default 5). */
  maxRedirects?: number;
}

/** A media URL's `host[:port]` for messages (no path, no query, no credentials). */
export function mediaHost(url: string): string {
  try {
    return new URL(url).host || "(no host)";
  } catch {
    return "(not a URL)";
  }
}

/**
 * Refuses `url` (by throwing `LlmMediaError` with reason `refused`) unless the policy allows it. Without
 * `allowedHosts` every URL is allowed. Called for the URL itself and for every redirect target.
 */
export async function checkMediaUrl(
  url: string,
  policy: MediaUrlPolicy | undefined,
  provider: string,
): Promise<void> {
  if (policy?.allowedHosts === undefined) return;
  const allowed = policy.allowedHosts;
  const host = mediaHost(url);
  const refuse = (detail: string): never => {
    throw new LlmMediaError("refused", host, detail, { provider });
  };
  const hint =
    "This server allows media URLs only from the hosts it was started with " +
    "(sapling serve / sapling dev --allow-media-host HOST, or the runtime's mediaUrls.allowedHosts).";
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refuse(`not a valid URL. ${hint}`);
  }
  if (parsed.username !== "" || parsed.password !== "") {
    refuse("the URL carries a user name or password; media URLs with credentials are not fetched.");
  }
  const hostname = parsed.hostname.toLowerCase();
  const port = parsed.port || ({ "http:": "80", "https:": "443" } as Record<string, string>)[parsed.protocol];
  const match = matchAllowedHost(hostname, port ?? "", allowed);
  if (match === undefined) refuse(`the host is not allowed. ${hint}`);
  // A host listed as written (a name or an address) is the operator's choice, even a private one.
  if (match === "exact") return;
  if (!["http:", "https:"].includes(parsed.protocol)) {
    refuse(`only http and https media URLs are fetched, got ${parsed.protocol}`);
  }
  const addresses = isIpAddress(hostname) ? [hostname] : await resolve(hostname, policy, refuse);
  for (const address of addresses) {
    const kind = blockedAddressKind(address);
    if (kind !== undefined) {
      refuse(
        `${isIpAddress(hostname) ? "the address" : `it resolves to ${address}, which`} is ${kind}; ` +
          "media URLs must reach public hosts (list a private host by its exact name to allow it).",
      );
    }
  }
}

async function resolve(
  hostname: string,
  policy: MediaUrlPolicy,
  refuse: (detail: string) => never,
): Promise<readonly string[]> {
  if (policy.resolveHost === undefined) {
    return refuse("its address cannot be checked here (no resolveHost was given), so it is not fetched.");
  }
  let addresses: readonly string[];
  try {
    addresses = await policy.resolveHost(hostname);
  } catch (error) {
    return refuse(`the host name did not resolve (${error instanceof Error ? error.message : error}).`);
  }
  if (addresses.length === 0) refuse("the host name resolved to no address.");
  return addresses;
}

/** How `hostname` (and `port`) matches the list: `exact` (listed as written), `pattern`, or not at all. */
function matchAllowedHost(
  hostname: string,
  port: string,
  allowed: readonly string[],
): "exact" | "pattern" | undefined {
  let result: "exact" | "pattern" | undefined;
  for (const raw of allowed) {
    const entry = raw.trim().toLowerCase();
    if (entry === "*") {
      result ??= "pattern";
      continue;
    }
    const { name, port: entryPort } = splitHostEntry(entry);
    if (entryPort !== undefined && entryPort !== port) continue;
    if (name === hostname) return "exact";
    if (name.startsWith("*.") && hostname.endsWith(name.slice(1))) result ??= "pattern";
  }
  return result;
}

/** `host`, `host:port`, `[v6]`, `[v6]:port` → the host as `URL.hostname` spells it, and the port. */
function splitHostEntry(entry: string): { name: string; port: string | undefined } {
  const bracketed = /^(\[[^\]]+\])(?::(\d+))?$/.exec(entry);
  if (bracketed) return { name: bracketed[1] as string, port: bracketed[2] };
  const colon = entry.lastIndexOf(":");
  if (colon > 0 && entry.indexOf(":") === colon && /^\d+$/.test(entry.slice(colon + 1))) {
    return { name: entry.slice(0, colon), port: entry.slice(colon + 1) };
  }
  return { name: entry, port: undefined };
}

/**
 * What is wrong with an `allowedHosts` entry, or `undefined` when it is fine: `*`, a host name, an address
 * (IPv6 in brackets), `*.` before a name, and an optional `:port`. URLs and paths are not hosts.
 */
export function allowedHostProblem(entry: string): string | undefined {
  if (entry === "*") return undefined;
  if (entry.includes("/") || entry.includes("@")) {
    return `"${entry}" is not a host; give the host name alone (e.g. images.example.com), without scheme or path.`;
  }
  const { name } = splitHostEntry(entry.toLowerCase());
  if (name.startsWith("[") ? isIpAddress(name) : /^(\*\.)?[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?$/.test(name)) {
    return undefined;
  }
  return `"${entry}" is not a host name, an address or a pattern like *.example.com.`;
}
