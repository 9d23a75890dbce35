/**
 * Provider-neutral chat data, shared by the room that produces messages (`prompt`), the room that sends
 * them (`llm`) and the one that joins the two (`runtime`). Plain data only.
 */

export type MediaKind = "image" | "audio" | "pdf" | "video";

/** A media value passed as a function argument (`Image.fromUrl(…)`, `Pdf.fromBase64(…)`). */
export interface MediaValue {
  kind: "media";
  type: MediaKind;
  /** Exactly one of `url` and `base64` is set. */
  url?: string;
  base64?: string;
  /** MIME type, e.g. `image/png`; required with `base64`. */
  mediaType?: string;
}

export type MessagePart = { type: "text"; text: string } | { type: "media"; media: MediaValue };

export interface ChatMessage {
  /** `system`, `user`, `assistant`, or any role the client allows. */
  role: string;
  parts: MessagePart[];
  /** Extra role metadata from `_.role("user", cache_control=…)`, forwarded only where the client allows it. */
  metadata?: Record<string, unknown>;
}

export function isMediaValue(value: unknown): value is MediaValue {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { kind?: unknown }).kind === "media" &&
    typeof (value as { type?: unknown }).type === "string"
  );
}
