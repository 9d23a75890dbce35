// The browser bundle of an application that calls `TypeBuilder.addBaml`: the runtime plus the package
// root, whose compiler it passes to the builder. No node: may leak in.

import { typeBuilderCompiler } from "../../src/index.js";
import { SaplingRuntime, TypeBuilder } from "../../src/runtime/index.js";

(globalThis as { sapling?: unknown }).sapling = { SaplingRuntime, TypeBuilder, typeBuilderCompiler };
