/**
 * A body read whole but never past `maxBytes`: refused from a declared `content-length` before reading
 * anything, and while reading for bodies without one, cancelling the stream at once, so an oversized body
 * is never buffered. `undefined` means too large. (The server's request bodies and media downloads.)
 */
export async function readCappedBytes(
  body: ReadableStream<Uint8Array> | null,
  contentLength: string | null,
  maxBytes: number,
): Promise<Uint8Array | undefined> {
  const declared = Number(contentLength ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await body?.cancel().catch(() => {});
    return undefined;
  }
  if (body === null) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
