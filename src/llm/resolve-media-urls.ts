/**
 * `media_url_handler`: before a provider shapes its request, each media value given by URL is either sent
 * as a URL or downloaded (through the injected `fetch`) and inlined as base64, per media kind. `data:` URLs
 * are inlined without a download. Every other URL first passes the media URL policy (media-url-policy.ts),
 * and every download is capped in size and time.
 */

import { LlmAbortError, LlmMediaError } from "../provider-helpers/index.js";
import {
  type ChatMessage,
  type MediaKind,
  type MediaValue,
  type MessagePart,
  readCappedBytes,
} from "../util/index.js";
import type { MediaUrlMode } from "./client-options.js";
import { hasMediaUrls } from "./has-media-urls.js";
import { defaultMediaLimits } from "./media-limits.js";
import { checkMediaUrl, type MediaUrlPolicy, mediaHost } from "./media-url-policy.js";
import { redactUrl } from "./redact.js";

export interface ResolveMediaSettings {
  provider: string;
  modeFor: (kind: MediaKind) => MediaUrlMode;
  fetch: typeof fetch;
  signal?: AbortSignal;
  /** Which URLs may be used and the download limits (absent: every URL, default limits). */
  policy?: MediaUrlPolicy;
}

export async function resolveMediaUrls(
  messages: readonly ChatMessage[],
  settings: ResolveMediaSettings,
): Promise<ChatMessage[]> {
  if (!hasMediaUrls(messages)) return messages.slice();
  return Promise.all(
    messages.map(async (message) => ({
      ...message,
      parts: await Promise.all(message.parts.map((part) => resolvePart(part, settings))),
    })),
  );
}

async function resolvePart(part: MessagePart, settings: ResolveMediaSettings): Promise<MessagePart> {
  if (part.type !== "media" || part.media.url === undefined) return part;
  const media = part.media;
  const url = media.url as string;
  const inline = parseDataUrl(url);
  if (inline !== undefined) {
    return { type: "media", media: withBase64(media, inline.base64, media.mediaType ?? inline.mediaType) };
  }
  // Checked even when the URL is only passed on: a self-hosted model server would fetch it from inside.
  await checkMediaUrl(url, settings.policy, settings.provider);
  const mode = settings.modeFor(media.type);
  if (mode === "send_url") return part;
  if (mode === "send_base64_unless_google_url" && isGoogleUrl(url)) return part;
  if (mode === "send_url_add_mime_type") {
    if (media.mediaType !== undefined) return part;
    const guessed = guessMediaType(url);
    if (guessed !== undefined) return { type: "media", media: { ...media, mediaType: guessed } };
    const downloaded = await download(url, settings);
    return { type: "media", media: { ...media, mediaType: downloaded.mediaType } };
  }
  const downloaded = await download(url, settings);
  return {
    type: "media",
    media: withBase64(media, downloaded.base64, media.mediaType ?? downloaded.mediaType),
  };
}

function withBase64(media: MediaValue, base64: string, mediaType: string | undefined): MediaValue {
  const result: MediaValue = { kind: "media", type: media.type, base64 };
  if (mediaType !== undefined) result.mediaType = mediaType;
  return result;
}

function isGoogleUrl(url: string): boolean {
  return url.startsWith("gs://") || url.startsWith("https://generativelanguage.googleapis.com/");
}

function parseDataUrl(url: string): { base64: string; mediaType: string | undefined } | undefined {
  const match = /^data:([^;,]*)(;[^,]*)?,(.*)$/s.exec(url);
  if (match === null) return undefined;
  const isBase64 = (match[2] ?? "").includes(";base64");
  const payload = match[3] ?? "";
  const base64 = isBase64 ? payload : encodeBase64(new TextEncoder().encode(decodeURIComponent(payload)));
  return { base64, mediaType: match[1] === "" ? undefined : match[1] };
}

const extensionTypes: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  pdf: "application/pdf",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  ogg: "audio/ogg",
  mp4: "video/mp4",
  webm: "video/webm",
};

function guessMediaType(url: string): string | undefined {
  const path = url.split(/[?#]/)[0] ?? "";
  const extension = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
  return extensionTypes[extension];
}

/**
 * Downloads a media URL within the policy's limits. Under a host policy redirects are followed here, one
 * hop at a time, so each target is checked like the URL itself. A failure names the media host and what
 * happened, never what the host sent back.
 */
async function download(
  url: string,
  settings: ResolveMediaSettings,
): Promise<{ base64: string; mediaType: string | undefined }> {
  const policy = settings.policy;
  const maxBytes = policy?.maxBytes ?? defaultMediaLimits.maxBytes;
  const timeoutMs = policy?.timeoutMs ?? defaultMediaLimits.timeoutMs;
  const maxRedirects = policy?.maxRedirects ?? defaultMediaLimits.maxRedirects;
  const checkHops = policy?.allowedHosts !== undefined;
  const timer = new AbortController();
  const timeout = setTimeout(() => timer.abort(), timeoutMs);
  const signal = settings.signal ? AbortSignal.any([settings.signal, timer.signal]) : timer.signal;
  let current = url;
  const fail = (reason: ConstructorParameters<typeof LlmMediaError>[0], detail: string): never => {
    throw new LlmMediaError(reason, mediaHost(current), detail, {
      provider: settings.provider,
      url: redactUrl(current),
    });
  };
  // A transport failure: the caller's abort, the download's own timeout, or the connection.
  const broken = (error: unknown, what: string): never => {
    if (LlmMediaError.isInstance(error)) throw error;
    if (settings.signal?.aborted) {
      throw new LlmAbortError(settings.signal.reason, { provider: settings.provider });
    }
    if (timer.signal.aborted) fail("timeout", `the download took longer than ${timeoutMs} ms.`);
    return fail("connection", `the download ${what} (${describe(error)}).`);
  };
  try {
    for (let hop = 0; ; hop++) {
      if (hop > 0) await checkMediaUrl(current, policy, settings.provider);
      let response: Response;
      try {
        response = await settings.fetch(current, { signal, redirect: checkHops ? "manual" : "follow" });
      } catch (error) {
        return broken(error, "failed");
      }
      if (checkHops && response.type === "opaqueredirect") {
        fail("refused", "it redirects, and this fetch hides where to, so the target cannot be checked.");
      }
      if (checkHops && response.status >= 300 && response.status < 400) {
        await response.body?.cancel().catch(() => {});
        const location = response.headers.get("location");
        if (location === null)
          fail("http_status", `the host answered HTTP ${response.status} with no location.`);
        if (hop >= maxRedirects) fail("refused", `more than ${maxRedirects} redirects.`);
        current = new URL(location as string, current).href;
        continue;
      }
      if (!response.ok) {
        // The body is never read: it could be what an internal service shows, or just large.
        await response.body?.cancel().catch(() => {});
        return fail("http_status", `the media host answered HTTP ${response.status}; check the URL.`);
      }
      const bytes = await readCappedBytes(
        response.body,
        response.headers.get("content-length"),
        maxBytes,
      ).catch((error: unknown) => broken(error, "broke off"));
      if (bytes === undefined) {
        return fail(
          "too_large",
          `the download is larger than the limit of ${maxBytes} bytes (mediaUrls.maxBytes).`,
        );
      }
      const contentType = response.headers.get("content-type")?.split(";")[0]?.trim();
      return { base64: encodeBase64(bytes), mediaType: contentType || guessMediaType(current) };
    }
  } finally {
    clearTimeout(timeout);
  }
}

/** Base64 without `Buffer` (browser-safe); chunked so large files do not overflow the argument limit. */
export function encodeBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let offset = 0; offset < bytes.length; offset += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(offset, offset + 0x8000));
  }
  return btoa(binary);
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: { code?: unknown } }).cause;
    return typeof cause?.code === "string" ? `${error.message}: ${cause.code}` : error.message;
  }
  return String(error);
}
