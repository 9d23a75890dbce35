import { aliasCoercer } from "../kinds/alias/coerce-alias.js";
import { classCoercer } from "../kinds/class/coerce-class.js";
import { enumCoercer } from "../kinds/enum/coerce-enum.js";
import { literalCoercer } from "../kinds/enum/coerce-literal.js";
import { listCoercer } from "../kinds/list/coerce-list.js";
import { mapCoercer } from "../kinds/map/coerce-map.js";
import { mediaCoercer } from "../kinds/media/coerce-media.js";
import { optionalCoercer } from "../kinds/optional/coerce-optional.js";
import { primitiveCoercer } from "../kinds/primitive/coerce-primitive.js";
import { unionCoercer } from "../kinds/union/coerce-union.js";
import type { CoercerTable } from "./coerce-context.js";

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
