import { readCappedBytes } from "../util/index.js";
import { HttpError } from "./error-response.js";
import { findInexactInteger } from "./find-inexact-integer.js";

/**
 * The request body as text, refusing more than `maxBytes` with 413 — from `content-length` before reading
 * anything, and while reading for bodies without one (chunked uploads), so an oversized body is never
 * buffered whole.
 */
export async function readRequestText(request: Request, maxBytes: number): Promise<string> {
  const bytes = await readCappedBytes(request.body, request.headers.get("content-length"), maxBytes);
  if (bytes === undefined) throw tooLarge(maxBytes);
  return new TextDecoder().decode(bytes);
}

function tooLarge(maxBytes: number): HttpError {
  return new HttpError(
    413,
    "PAYLOAD_TOO_LARGE",
    `The request body is larger than ${maxBytes} bytes; send less, or raise the server's maxBodyBytes.`,
  );
}

/** The body parsed as a JSON object (400 otherwise). */
export async function readJsonObject(request: Request, maxBytes: number): Promise<Record<string, unknown>> {
  const text = await readRequestText(request, maxBytes);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text === "" ? "{}" : text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new HttpError(400, "BAD_REQUEST", `The request body is not valid JSON (${reason}).`);
  }
  const inexact = findInexactInteger(text);
  if (inexact) {
    throw new HttpError(
      400,
      "BAD_REQUEST",
      `The request body has the integer ${inexact.literal} (at character ${inexact.offset}), beyond 2^53 − 1 ` +
        `where JavaScript numbers stop being exact: it would silently become ${Number(inexact.literal)}. ` +
        "Send it as a string, or as a float (with an exponent) if an approximate value will do.",
    );
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new HttpError(
      400,
      "BAD_REQUEST",
      'The request body must be a JSON object keyed by parameter name, like {"text": "…"}.',
    );
  }
  return parsed as Record<string, unknown>;
}
