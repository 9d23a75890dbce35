import type { MediaType } from "../../../ir/index.js";
import type { KindCoercer } from "../../coerce/coerce-context.js";
import { failure } from "../../coerce/coerce-result.js";

/** Media (image, audio, pdf, video) are inputs; text cannot produce them. */
export const mediaCoercer: KindCoercer<MediaType> = {
  coerce: (type, node, path) =>
    failure(
      "unsupported-type",
      path,
      type.name,
      node,
      `A ${type.name} cannot be parsed from text; use it as a function input.`,
    ),
  plainText: () => "never",
};
