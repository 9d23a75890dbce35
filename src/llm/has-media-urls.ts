import type { ChatMessage } from "../util/index.js";

/**
 * Whether any message holds a media value given by URL: only then is there a URL to check or download, so
 * only then does `HttpLanguageModel` load resolve-media-urls.ts (and the URL policy) with `import()`.
 */
export function hasMediaUrls(messages: readonly ChatMessage[]): boolean {
  return messages.some((message) =>
    message.parts.some((part) => part.type === "media" && part.media.url !== undefined),
  );
}
