import type { Client, RetryPolicy } from "../ir/index.js";
import type { ClientTree } from "./client-tree.js";
import { retryDelay } from "./retry-delay.js";
import type { RoundRobinPicker } from "./round-robin-picker.js";

/** One step of a call's plan: try `client`, after waiting `delayMs`. */
export interface PlannedAttempt {
  client: Client;
  delayMs: number;
}

/**
 * Flattens a client tree into the ordered list of attempts a call makes (BAML's orchestration): a fallback
 * tries its children in order; a round-robin uses one child per call; a retry policy repeats its node's
 * whole sequence `maxRetries` more times, waiting the policy's delay before each repetition.
 */
export function planAttempts(tree: ClientTree, pick: RoundRobinPicker): PlannedAttempt[] {
  let sequence: PlannedAttempt[];
  switch (tree.kind) {
    case "leaf":
      sequence = [{ client: tree.client, delayMs: 0 }];
      break;
    case "fallback":
      sequence = tree.children.flatMap((child) => planAttempts(child, pick));
      break;
    case "round-robin": {
      const chosen = tree.children[pick(tree.client, tree.children.length, tree.start)];
      sequence = chosen ? planAttempts(chosen, pick) : [];
      break;
    }
  }
  return tree.retryPolicy ? repeat(sequence, tree.retryPolicy) : sequence;
}

function repeat(sequence: PlannedAttempt[], policy: RetryPolicy): PlannedAttempt[] {
  const result = [...sequence];
  for (let retry = 1; retry <= policy.maxRetries; retry++) {
    sequence.forEach((attempt, index) => {
      const wait = index === 0 ? retryDelay(policy, retry) : 0;
      result.push({ client: attempt.client, delayMs: attempt.delayMs + wait });
    });
  }
  return result;
}
