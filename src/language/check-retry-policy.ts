import { suggestName } from "../diagnostics/index.js";
import type { RetryPolicyDecl } from "./ast.js";
import { checkAttributes } from "./check-attributes.js";
import { suggestion } from "./check-context.js";
import { entriesByKey, reportInvalidValue, textOf } from "./config-values.js";
import type { Reporter } from "./reporter.js";

export const retryStrategyTypes = ["constant_delay", "exponential_backoff"];
const strategyFields: Record<string, string[]> = {
  constant_delay: ["type", "delay_ms"],
  exponential_backoff: ["type", "delay_ms", "multiplier", "max_delay_ms"],
};

/** Check a retry policy: `max_retries` is a non-negative integer; the strategy type and its fields exist. */
export function checkRetryPolicy(declaration: RetryPolicyDecl, report: Reporter): void {
  checkAttributes(declaration.body.attributes, "config", report);
  const entries = entriesByKey(declaration.body, report);
  for (const entry of entries.values()) {
    if (entry.key.name === "max_retries") {
      if (entry.value.kind !== "number" || !Number.isInteger(entry.value.value) || entry.value.value < 0) {
        reportInvalidValue(entry, "a whole number of retries (0 or more)", report);
      }
    } else if (entry.key.name === "strategy") {
      if (entry.value.kind === "map") checkStrategy(entry.value.block, report);
      else reportInvalidValue(entry, "a strategy block { type … }", report);
    } else {
      const allowed = ["max_retries", "strategy"];
      report(
        "unknown-retry-property",
        {
          name: entry.key.name,
          allowed: allowed.join(", "),
          ...suggestion(suggestName(entry.key.name, allowed)),
        },
        entry.key.span,
      );
    }
  }
  if (!entries.has("max_retries"))
    report("missing-max-retries", { name: declaration.name.name }, declaration.name.span);
}

function checkStrategy(
  block: Extract<RetryPolicyDecl["body"]["entries"][number]["value"], { kind: "map" }>["block"],
  report: Reporter,
): void {
  const entries = entriesByKey(block, report);
  const typeEntry = entries.get("type");
  let type = "constant_delay";
  if (typeEntry) {
    const written = textOf(typeEntry.value);
    if (written === undefined) {
      reportInvalidValue(typeEntry, "constant_delay or exponential_backoff", report);
      return;
    }
    if (!retryStrategyTypes.includes(written)) {
      report(
        "invalid-retry-strategy",
        { found: written, ...suggestion(suggestName(written, retryStrategyTypes)) },
        typeEntry.value.span,
      );
      return;
    }
    type = written;
  }
  const allowed = strategyFields[type] ?? [];
  const known = new Set(Object.values(strategyFields).flat());
  for (const entry of entries.values()) {
    if (!known.has(entry.key.name)) {
      // BAML ignores keys no strategy has (often a typo, `mutliplier`, or `initial_delay_ms`): a warning.
      report(
        "ignored-retry-strategy-property",
        {
          name: entry.key.name,
          allowed: allowed.join(", "),
          ...suggestion(suggestName(entry.key.name, allowed)),
        },
        entry.key.span,
      );
    } else if (!allowed.includes(entry.key.name)) {
      // A setting of the other strategy (`multiplier` for constant_delay): BAML rejects it.
      report(
        "unknown-retry-property",
        {
          name: entry.key.name,
          allowed: allowed.join(", "),
          ...suggestion(suggestName(entry.key.name, allowed)),
        },
        entry.key.span,
      );
    } else if (entry.key.name !== "type") {
      if (entry.value.kind !== "number" || entry.value.value < 0)
        reportInvalidValue(entry, "a non-negative number", report);
    }
  }
}
