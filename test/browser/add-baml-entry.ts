// The browser bundle of a generated client's TypeBuilder: the runtime plus the package root, whose
// compiler `TypeBuilder.addBaml` uses (generated type_builder.ts imports it). No node: may leak in.

import { typeBuilderCompiler } from "../../src/index.js";
import { SaplingRuntime, TypeBuilder } from "../../src/runtime/index.js";

(globalThis as { sapling?: unknown }).sapling = { SaplingRuntime, TypeBuilder, typeBuilderCompiler };
