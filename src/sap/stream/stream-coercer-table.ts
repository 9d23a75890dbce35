import type { CoercerTable } from "../coerce/coerce-context.js";
import { coercers } from "../coerce/coercer-table.js";
import { streamClassCoercer } from "./stream-class-coercer.js";
import { streamListCoercer } from "./stream-list-coercer.js";
import { streamMapCoercer } from "./stream-map-coercer.js";

/**
 * The kind table of prefix mode: containers are the streaming ones (incremental, partial semantics);
 * scalars, enums, literals, unions, optionals and aliases are the final-mode coercers, reached through the
 * streaming context, which holds back values that are not ready.
 */
export const streamCoercers: CoercerTable = {
  ...coercers,
  class: streamClassCoercer,
  list: streamListCoercer,
  map: streamMapCoercer,
};
