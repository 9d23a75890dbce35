import type { CoercerTable } from "../coerce/coerce-context.js";
import { coercers } from "../coerce/coercer-table.js";
import { streamClassCoercer } from "../kinds/class/stream-class-coercer.js";
import { streamListCoercer } from "../kinds/list/stream-list-coercer.js";
import { streamMapCoercer } from "../kinds/map/stream-map-coercer.js";

/**
 * The kind table of prefix mode: classes, lists and maps are the streaming ones (incremental, partial
 * semantics); every other kind has one coercer for both modes (a union's shows a view of its one choice
 * in a stream, docs/decisions/0040), reached through the streaming context, which holds back values that
 * are not ready.
 */
export const streamCoercers: CoercerTable = {
  ...coercers,
  class: streamClassCoercer,
  list: streamListCoercer,
  map: streamMapCoercer,
};
