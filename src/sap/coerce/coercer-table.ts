import { aliasCoercer } from "./coerce-alias.js";
import { classCoercer } from "./coerce-class.js";
import type { CoercerTable } from "./coerce-context.js";
import { enumCoercer } from "./coerce-enum.js";
import { listCoercer } from "./coerce-list.js";
import { literalCoercer } from "./coerce-literal.js";
import { mapCoercer } from "./coerce-map.js";
import { mediaCoercer } from "./coerce-media.js";
import { optionalCoercer } from "./coerce-optional.js";
import { primitiveCoercer } from "./coerce-primitive.js";
import { unionCoercer } from "./coerce-union.js";

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
