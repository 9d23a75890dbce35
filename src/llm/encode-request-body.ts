import { isMediaValue } from "../util/index.js";
import type { ProviderRequest } from "./language-model.js";

/**
 * What goes on the wire for a request: its body as JSON text, or, for `encoding: "multipart"`, a form
 * whose fields are the body's (text as is, other values as JSON) and whose media value is a file named
 * after its type (`audio.mp3` for `audio/mp3`, as BAML names it). `fetch` writes the form's content type.
 */
export function encodeRequestBody(request: ProviderRequest): string | FormData {
  if (request.encoding !== "multipart") return JSON.stringify(request.body);
  const form = new FormData();
  for (const [name, value] of Object.entries(request.body)) {
    if (isMediaValue(value)) {
      const bytes = Uint8Array.from(atob(value.base64 ?? ""), (char) => char.charCodeAt(0));
      const mediaType = value.mediaType ?? "";
      const extension = mediaType.split("/")[1] || "bin";
      form.append(name, new Blob([bytes], { type: mediaType }), `${value.type}.${extension}`);
    } else form.append(name, typeof value === "string" ? value : JSON.stringify(value));
  }
  return form;
}
