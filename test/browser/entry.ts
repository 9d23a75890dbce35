// The browser bundle under test: the runtime entry point and nothing else (no compiler, no node:).
import { readStream, SaplingRuntime } from "../../src/runtime/index.js";

(globalThis as { sapling?: unknown }).sapling = { SaplingRuntime, readStream };
