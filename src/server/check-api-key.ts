import { HttpError } from "./error-response.js";

/**
 * Refuses a request (401) unless it carries `apiKey` in `x-sapling-api-key`, BAML's `x-baml-api-key`, or as
 * the password of HTTP Basic authentication (any user name), as BAML's `BAML_PASSWORD` does. The compare
 * takes the same time wherever the strings differ, so response timing does not reveal the key.
 */
export function checkApiKey(request: Request, apiKey: string): void {
  if (apiKeyProblem(request, apiKey) !== undefined) {
    throw new HttpError(
      401,
      "UNAUTHORIZED",
      "This server requires an API key: send it in the x-sapling-api-key (or x-baml-api-key) header, " +
        "or as the password of HTTP Basic authentication.",
    );
  }
}

/** Why the request does not carry `apiKey` (`undefined` when it does); what `/_debug/status` reports. */
export function apiKeyProblem(request: Request, apiKey: string): string | undefined {
  const offered = [
    request.headers.get("x-sapling-api-key"),
    request.headers.get("x-baml-api-key"),
    basicPassword(request.headers.get("authorization")),
  ].filter((candidate): candidate is string => candidate !== null && candidate !== undefined);
  let accepted = false;
  for (const candidate of offered) if (sameText(candidate, apiKey)) accepted = true;
  if (accepted) return undefined;
  return offered.length === 0 ? "No authorization metadata" : "Incorrect API key";
}

function basicPassword(header: string | null): string | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? "");
  if (!match?.[1]) return undefined;
  let decoded: string;
  try {
    decoded = new TextDecoder().decode(Uint8Array.from(atob(match[1]), (char) => char.charCodeAt(0)));
  } catch {
    return undefined;
  }
  const colon = decoded.indexOf(":");
  return colon === -1 ? undefined : decoded.slice(colon + 1);
}

function sameText(a: string, b: string): boolean {
  const left = new TextEncoder().encode(a);
  const right = new TextEncoder().encode(b);
  let difference = left.length ^ right.length;
  for (let position = 0; position < right.length; position++) {
    difference |= (left[position % Math.max(left.length, 1)] ?? 0) ^ (right[position] ?? 0);
  }
  return difference === 0;
}
