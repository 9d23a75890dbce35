export { configValueToPlain } from "./config-value-to-plain.js";
export { IrIndex } from "./ir-index.js";
export { labelledChecks } from "./labelled-checks.js";
export { emptyIr, IrVersionError, loadIr } from "./load-ir.js";
export { t } from "./type-builders.js";
export { typeToString } from "./type-to-string.js";
export * from "./types.js";
export { unionOf } from "./union-of.js";
