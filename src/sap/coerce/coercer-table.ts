import { classCoercer } from "./coerce-class.js";
import type { CoercerTable } from "./coerce-context.js";
import { enumCoercer, literalCoercer } from "./coerce-enum.js";
import { listCoercer } from "./coerce-list.js";
import { mapCoercer } from "./coerce-map.js";
import {
  aliasCoercer,
  mediaCoercer,
  optionalCoercer,
  primitiveCoercer,
  unionCoercer,
} from "./coerce-wrappers.js";

/** One coercer per type kind; the compiler checks the table covers the closed union of kinds. */
export const coercers: CoercerTable = {
  primitive: primitiveCoercer,
  literal: literalCoercer,
  enum: enumCoercer,
  class: classCoercer,
  list: listCoercer,
  map: mapCoercer,
  union: unionCoercer,
  optional: optionalCoercer,
  alias: aliasCoercer,
  media: mediaCoercer,
};
