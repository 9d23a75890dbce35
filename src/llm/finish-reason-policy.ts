/**
 * `finish_reason_allow_list` / `finish_reason_deny_list`: which raw finish reasons count as a successful
 * answer. The runtime raises its finish-reason error when a reason is not allowed; this room only decides.
 */

export interface FinishReasonPolicy {
  allowList?: readonly string[];
  denyList?: readonly string[];
}

/**
 * An allow list, when present, wins: the reason must be on it (an unreported reason fails). Otherwise a deny
 * list rejects the reasons on it (an unreported reason passes). With neither, everything passes.
 */
export function isFinishReasonAllowed(
  policy: FinishReasonPolicy,
  rawFinishReason: string | undefined,
): boolean {
  if (policy.allowList !== undefined) {
    return rawFinishReason !== undefined && policy.allowList.includes(rawFinishReason);
  }
  if (policy.denyList !== undefined) {
    return rawFinishReason === undefined || !policy.denyList.includes(rawFinishReason);
  }
  return true;
}
