// The browser bundle under test: the runtime entry point and nothing else (no compiler, no node:).
import { SaplingRuntime } from "../../src/runtime/index.js";
import { readStream } from "../../src/stream-client/index.js";

(globalThis as { sapling?: unknown }).sapling = { SaplingRuntime, readStream };
