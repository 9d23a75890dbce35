/**
 * What a partial reader's reading shows and where it came from (regions by position, roots by offsets),
 * for tests that hold two ways of reading the same answer to the same readings
 * (`sap-stream-whole-fence.test.ts`, `sap-stream-finished-nodes.test.ts`).
 */
import type { PartialReader, PartialReading } from "../src/sap/stream/partial-reader.js";
import { pendingOf } from "../src/sap/stream/stream-of.js";

export function describeReading(reader: PartialReader, reading: PartialReading | undefined) {
  if (reading === undefined) return undefined;
  const regions = (reader as unknown as { scanner: { regions: unknown[] } }).scanner.regions;
  const { region, root, child, combined, labels } = reading.source;
  return {
    value: reading.value,
    score: reading.result.score,
    pending: pendingOf(reading.result),
    distance: reading.distance,
    complete: reading.complete,
    rank: reading.rank,
    order: reading.order,
    nested: reading.nested,
    region: region === undefined ? undefined : regions.indexOf(region),
    root: root === undefined ? undefined : { start: root.start, end: root.end, repairs: root.repairs },
    child: child !== undefined,
    combined,
    labels,
  };
}
