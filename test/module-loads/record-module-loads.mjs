// `node --import ./record-module-loads.mjs …`: the process appends the URL of every module it loads, one a
// line, to the file named by SAPLING_MODULE_LOG (test/entry-import-graph.test.ts counts them).
import { register } from "node:module";

register("./module-load-hooks.mjs", import.meta.url);
