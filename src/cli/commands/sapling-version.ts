// The CLI's commands read the package version from util, where the runtime and codegen read it too.
export { minorVersion, SAPLING_VERSION } from "../../util/index.js";
