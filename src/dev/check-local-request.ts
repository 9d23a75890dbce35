/**
 * The guard in front of every `sapling dev` route. The page can spend the developer's API keys, so two
 * attacks matter:
 *
 * - DNS rebinding: a web page on `evil.example` makes its own name resolve to 127.0.0.1 and calls the
 *   server as same-origin. Its requests carry `Host: evil.example`, so only loopback host names with the
 *   server's port are accepted.
 * - Cross-site requests: a page elsewhere posts to `http://127.0.0.1:2024/_dev/run` (a "simple" request
 *   needs no preflight). Browsers send `Origin` on every cross-origin request and on every POST, and
 *   `Sec-Fetch-Site`; a foreign or `null` origin, or a fetch that says it is cross-site, is refused.
 *
 * Requests without `Origin` (curl, scripts on the machine) pass: they are not from a web page.
 */

/** The host names a loopback server answers to. */
const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"] as const;

/** Why `request` is refused, or `undefined` when it may go on. */
export function checkLocalRequest(request: Request, port: number): string | undefined {
  const hosts = new Set(LOOPBACK_NAMES.map((name) => `${name}:${port}`));
  // Browsers leave the default port out of Host and Origin.
  if (port === 80) for (const name of LOOPBACK_NAMES) hosts.add(name);
  const host = request.headers.get("host") ?? new URL(request.url).host;
  if (!hosts.has(host.toLowerCase())) {
    return `Host "${host}" is not this server (expected 127.0.0.1:${port} or localhost:${port}); refused against DNS rebinding.`;
  }
  const origin = request.headers.get("origin");
  if (origin !== null && !hosts.has(originHost(origin))) {
    return `Origin "${origin}" is not this server's page; sapling dev answers only its own page (http://127.0.0.1:${port}).`;
  }
  const site = request.headers.get("sec-fetch-site");
  if (site === "cross-site" || site === "same-site") {
    return `A ${site} request is refused; sapling dev answers only its own page (http://127.0.0.1:${port}).`;
  }
  return undefined;
}

/** `host:port` of an `http:` origin; anything else (`null`, `https:`, garbage) matches no host. */
function originHost(origin: string): string {
  try {
    const url = new URL(origin);
    return url.protocol === "http:" && url.origin === origin ? url.host.toLowerCase() : "";
  } catch {
    return "";
  }
}
