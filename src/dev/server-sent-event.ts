const encoder = new TextEncoder();

/** One server-sent event: `event: name` and its JSON data (one line: JSON text has no raw newline). */
export function serverSentEvent(name: string, data: unknown): Uint8Array {
  return encoder.encode(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
}
