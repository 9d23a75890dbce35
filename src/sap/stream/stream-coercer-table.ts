import type { CoercerTable } from "../coerce/coerce-context.js";
import { coercers } from "../coerce/coercer-table.js";
import { streamClassCoercer } from "../kinds/class/stream-class-coercer.js";
import { streamListCoercer } from "../kinds/list/stream-list-coercer.js";
import { streamMapCoercer } from "../kinds/map/stream-map-coercer.js";
import { streamUnionCoercer } from "../kinds/union/stream-union-coercer.js";

/**
 * The kind table of prefix mode: containers are the streaming ones (incremental, partial semantics), and
 * unions hold back a choice the text has not made yet; scalars, enums, literals, optionals and aliases
 * are the final-mode coercers, reached through the
 * streaming context, which holds back values that are not ready.
 */
export const streamCoercers: CoercerTable = {
  ...coercers,
  class: streamClassCoercer,
  list: streamListCoercer,
  map: streamMapCoercer,
  union: streamUnionCoercer,
};
