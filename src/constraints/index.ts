/**
 * `sapling-llm/constraints`: the evaluator of `@check`/`@assert` expressions (BAML's Jinja expressions,
 * `this` bound to the value), for a runtime that parses such types without a call: `b.parse.Fn`,
 * `b.parseStream.Fn` and `runtime.explain` are synchronous, and the runtime entry loads the Jinja engine
 * only with a call's prompt (docs/decisions/0048-lazy-prompt-renderer.md). The generated client imports it
 * when its .baml declares constraints:
 *
 * ```ts
 * import { evaluateConstraint } from "sapling-llm/constraints";
 * const runtime = SaplingRuntime.fromIr(ir, { constraintEvaluator: evaluateConstraint });
 * ```
 */
export { evaluateConstraint } from "../prompt/index.js";
