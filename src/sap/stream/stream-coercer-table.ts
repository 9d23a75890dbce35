import type { CoercerTable } from "../coerce/coerce-context.js";
import { coercers } from "../coerce/coercer-table.js";
import { streamClassCoercer } from "../kinds/class/stream-class-coercer.js";

/**
 * The kind table of prefix mode: classes are the streaming ones (incremental, partial semantics); every
 * other kind has one coercer for both modes, which keeps its fold's state in the stream's slots and shows
 * a view of it (a union's choice, a map's entries, a list's items: docs/decisions/0040), reached through
 * the streaming context, which holds back values that are not ready.
 */
export const streamCoercers: CoercerTable = {
  ...coercers,
  class: streamClassCoercer,
};
