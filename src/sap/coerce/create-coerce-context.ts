import { type IrIndex, type Type, typeToString } from "../../ir/index.js";
import { hasErrorMark, markError } from "../../util/index.js";
import { isCutHere, type JsonishNode } from "../lenient/jsonish-node.js";
import { SapConfigurationError } from "../sap-parse-error.js";
import { applyConstraints } from "./apply-constraints.js";
import type { CoerceContext, CoercerTable, ConstraintEvaluator, KindCoercer } from "./coerce-context.js";
import { addFlag, type CoerceFailure, type CoerceResult, failure } from "./coerce-result.js";

/**
 * How deep values are followed. Far beyond any real schema; it turns a pathological answer (100,000
 * nested lists for a recursive alias) into a parse error instead of a stack overflow.
 */
export const MAX_DEPTH = 500;

/** Thrown (and caught per candidate by `parseValue`) when a value nests deeper than `MAX_DEPTH`. */
export class TooDeep extends Error {
  constructor(readonly failure: CoerceFailure) {
    super(failure.issue.detail);
    markError(this, "TooDeep");
  }

  /** The limit met at `path`, reading `node` as `expected` (final mode and streams alike). */
  static at(path: string, expected: string, node: JsonishNode): TooDeep {
    return new TooDeep(failure("too-deep", path, expected, node, `Nesting deeper than ${MAX_DEPTH} levels.`));
  }

  /** `instanceof` that also works across two copies of the package. */
  static isInstance(value: unknown): value is TooDeep {
    return hasErrorMark(value, "TooDeep");
  }
}

export interface CoerceOptions {
  partial?: boolean;
  constraintEvaluator?: ConstraintEvaluator | undefined;
}

/** Build the context that ties the kind table together: dispatch, constraints, incompleteness, depth. */
export function createCoerceContext(
  index: IrIndex,
  table: CoercerTable,
  options: CoerceOptions,
): CoerceContext {
  const entry = (type: Type) => table[type.kind] as KindCoercer<Type>;
  // The (node, type) pairs being coerced right now, innermost last. A type asked again of the node it is
  // already being coerced on is a recursive type wrapping itself (`type V = int | V[]` reading `"2"` as
  // `[V]`, then `[[V]]`, …): that reading can never end, so it fails at once, as a plain failure the
  // union goes past — not a depth error that would abandon the whole answer.
  const busyNodes: JsonishNode[] = [];
  const busyTypes: Type[] = [];
  const context: CoerceContext = {
    index,
    partial: options.partial ?? false,
    constraintEvaluator: options.constraintEvaluator,
    depth: 0,
    active: new Map(),
    coerce(type: Type, node: JsonishNode, path: string): CoerceResult {
      const coercer = entry(type);
      if (context.depth >= MAX_DEPTH) {
        // Abandon the whole reading at once: retrying other union options on the way back up would
        // turn a pathological answer into quadratic work.
        throw TooDeep.at(path, context.describe(type), node);
      }
      // Only the innermost frames can hold the same node: coercers hand a node to inner types or go
      // down to its children, never back up, so the scan stops at the first other node.
      for (let at = busyNodes.length - 1; at >= 0 && busyNodes[at] === node; at--) {
        if (busyTypes[at] === type) {
          const detail = `Reading it as ${context.describe(type)} would need it to contain itself.`;
          return failure("circular", path, context.describe(type), node, detail);
        }
      }
      context.depth++;
      busyNodes.push(node);
      busyTypes.push(type);
      let result: CoerceResult;
      // (`withKnownNames` inlined: no closure per call, as this runs for every node of the answer.)
      try {
        result = coercer.coerce(type, node, path, context);
      } catch (error) {
        throw knownNames(error);
      } finally {
        context.depth--;
        busyNodes.pop();
        busyTypes.pop();
      }
      if (!result.ok) return result;
      if (!coercer.delegates && !node.complete && isCutHere(node)) {
        result = addFlag(result, "Incomplete", path, "the answer was cut off here", node);
      }
      const constraints = type.attrs?.constraints;
      return constraints && constraints.length > 0
        ? applyConstraints(constraints, result, path, context, context.describe(type), node)
        : result;
    },
    missing: (type) => withKnownNames(() => entry(type).missing?.(type, context)),
    isScalar: (type) => withKnownNames(() => entry(type).isScalar?.(type, context) ?? false),
    plainText: (type) => withKnownNames(() => entry(type).plainText?.(type, context) ?? "primary"),
    describe: (type) => entry(type).describe?.(type, context) ?? typeToString(type),
    fits: (type, node) => withKnownNames(() => entry(type).fits?.(type, node, context) ?? false),
  };
  return context;
}

/** IR lookups throw plain errors on unknown names; that is a configuration mistake, not a bad answer. */
export function withKnownNames<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw knownNames(error);
  }
}

/** The error to throw for `error`: an unknown IR name becomes a `SapConfigurationError`. */
function knownNames(error: unknown): unknown {
  if (error instanceof Error && /^Unknown (class|enum|type alias) /.test(error.message)) {
    return new SapConfigurationError(
      "unknown-type",
      `${error.message} The target type names a declaration the IR does not have; compile the project that declares it.`,
    );
  }
  return error;
}
