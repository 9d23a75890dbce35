export { CodegenError } from "./codegen-error.js";
export { generateClient } from "./generate-client.js";
export { type ResolvedGenerator, resolveGenerators } from "./resolve-generators.js";
