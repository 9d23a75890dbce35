import type { MediaValue } from "../util/index.js";

/**
 * The markers a rendered template carries until it is split into messages. The same delimiters as BAML, so
 * a template that prints one (it should not) behaves the same.
 */
export const ROLE_DELIMITER = "BAML_CHAT_ROLE_MAGIC_STRING_DELIMITER";
export const MEDIA_DELIMITER = "BAML_MEDIA_MAGIC_STRING_DELIMITER";

/** What `{{ _.role("user", cache_control={...}) }}` prints. */
export function roleMarker(role: string, metadata: Record<string, unknown>): string {
  return `${ROLE_DELIMITER}:baml-start-baml:${JSON.stringify({ ...metadata, role })}:baml-end-baml:${ROLE_DELIMITER}`;
}

/** What a media value prints: a reference into the render's media table. */
export function mediaMarker(media: MediaValue, table: MediaValue[]): string {
  table.push(media);
  return `${MEDIA_DELIMITER}:baml-start-media:${table.length - 1}:baml-end-media:${MEDIA_DELIMITER}`;
}
