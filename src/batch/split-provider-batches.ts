import type { ProviderBatchRecord } from "./batch-checkpoint.js";

/** How big one provider batch may be: a count of requests and a size in bytes, whichever comes first. */
export interface ProviderBatchLimits {
  /** Requests in one batch. */
  requests: number;
  /** Bytes of one batch's upload (OpenAI: the JSON-lines input file; Anthropic: the request body). */
  bytes: number;
}

/**
 * The providers' published limits. OpenAI's Batch API: an input file of at most 50,000 requests and
 * 200 MB; Anthropic's Message Batches: at most 100,000 requests or 256 MB. Megabytes are counted as
 * 10^6 bytes, the smaller reading, so that a batch never lands just over a limit.
 */
export const providerBatchLimits: Readonly<Record<ProviderBatchRecord["provider"], ProviderBatchLimits>> = {
  openai: { requests: 50_000, bytes: 200_000_000 },
  anthropic: { requests: 100_000, bytes: 256_000_000 },
};

/** Bytes a batch spends besides its entries: Anthropic's `{"requests":[…]}` wrapper; a margin for OpenAI's form. */
const envelopeBytes = 64;

/**
 * Splits serialized batch entries (one per row, in order) into the fewest consecutive groups within
 * `limits`, each entry counted with one separator byte (a newline or a comma). An entry too big for a
 * batch of its own is an error naming its row.
 */
export function splitProviderBatches<Entry extends { id: string; text: string }>(
  entries: readonly Entry[],
  limits: ProviderBatchLimits,
): Entry[][] {
  for (const [name, value] of Object.entries(limits))
    if (!Number.isInteger(value) || value < 1)
      throw new RangeError(`provider batch limit ${name} must be a whole number of at least 1, got ${value}`);
  const groups: Entry[][] = [];
  let current: Entry[] = [];
  let bytes = envelopeBytes;
  const encoder = new TextEncoder();
  for (const entry of entries) {
    const size = encoder.encode(entry.text).length + 1;
    if (envelopeBytes + size > limits.bytes)
      throw new RangeError(
        `row ${JSON.stringify(entry.id)}'s request is ${size} bytes, more than a provider batch holds (${limits.bytes} bytes); shorten its arguments or run it with --mode calls`,
      );
    if (current.length >= limits.requests || bytes + size > limits.bytes) {
      groups.push(current);
      current = [];
      bytes = envelopeBytes;
    }
    current.push(entry);
    bytes += size;
  }
  if (current.length > 0) groups.push(current);
  return groups;
}
