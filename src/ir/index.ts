export { configValueToPlain } from "./config-value-to-plain.js";
export { IrIndex } from "./ir-index.js";
export { labelledChecks } from "./labelled-checks.js";
export { emptyIr, IrVersionError, loadIr } from "./load-ir.js";
export {
  inherentlyDone,
  type StreamBehaviour,
  streamBehaviourOf,
  TOP_LEVEL,
  type TypeStreamBehaviour,
} from "./stream-behaviour.js";
export { t } from "./type-builders.js";
export { typeToString } from "./type-to-string.js";
export * from "./types.js";
export { unionOf } from "./union-of.js";
