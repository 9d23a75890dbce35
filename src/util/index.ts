export { assertNever } from "./assert-never.js";
export { computeLineStarts, offsetToLineColumn } from "./line-starts.js";
export { stableStringify } from "./stable-stringify.js";
