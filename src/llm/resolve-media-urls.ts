/**
 * `media_url_handler`: before a provider shapes its request, each media value given by URL is either sent
 * as a URL or downloaded (through the injected `fetch`) and inlined as base64, per media kind. `data:` URLs
 * are inlined without a download.
 */
import type { ChatMessage, MediaKind, MediaValue, MessagePart } from "../util/index.js";
import type { MediaUrlMode } from "./client-options.js";
import { LlmAbortError, LlmConnectionError, LlmHttpError } from "./llm-error.js";
import { redactUrl } from "./redact.js";

export interface ResolveMediaSettings {
  provider: string;
  modeFor: (kind: MediaKind) => MediaUrlMode;
  fetch: typeof fetch;
  signal?: AbortSignal;
}

export async function resolveMediaUrls(
  messages: readonly ChatMessage[],
  settings: ResolveMediaSettings,
): Promise<ChatMessage[]> {
  const hasUrlMedia = messages.some((message) =>
    message.parts.some((part) => part.type === "media" && part.media.url !== undefined),
  );
  if (!hasUrlMedia) return messages.slice();
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

async function download(
  url: string,
  settings: ResolveMediaSettings,
): Promise<{ base64: string; mediaType: string | undefined }> {
  const context = { provider: settings.provider, url: redactUrl(url) };
  let response: Response;
  try {
    response = await settings.fetch(url, settings.signal === undefined ? {} : { signal: settings.signal });
  } catch (error) {
    if (settings.signal?.aborted) throw new LlmAbortError(settings.signal.reason, context);
    throw new LlmConnectionError(`downloading media failed (${describe(error)})`, {
      ...context,
      cause: error,
    });
  }
  if (!response.ok) {
    throw new LlmHttpError(response.status, await response.text().catch(() => ""), undefined, context);
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  const contentType = response.headers.get("content-type")?.split(";")[0]?.trim();
  return { base64: encodeBase64(bytes), mediaType: contentType || guessMediaType(url) };
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
