/**
 * BAML's role options, applied before a provider shapes its messages: a role outside `allowed_roles`
 * becomes `default_role`, then `remap_roles` renames it for the wire; metadata (`cache_control`, …) is kept
 * only as far as `allowed_role_metadata` allows.
 */
import type { ChatMessage } from "../util/index.js";
import type { RolePolicy } from "./client-options.js";

export function applyRolePolicy(messages: readonly ChatMessage[], policy: RolePolicy): ChatMessage[] {
  return messages.map((message) => {
    const allowedRole = policy.allowedRoles.includes(message.role) ? message.role : policy.defaultRole;
    const role = policy.remapRoles[allowedRole] ?? allowedRole;
    const metadata = filterMetadata(message.metadata, policy.allowedRoleMetadata);
    return metadata === undefined ? { role, parts: message.parts } : { role, parts: message.parts, metadata };
  });
}

/**
 * The metadata the client allows. A message that was given metadata keeps an object even when all of it is
 * filtered out (`{}`): BAML still sends such a message's content as parts on `openai-generic`, not as a
 * string, and spreading `{}` into a part adds nothing elsewhere.
 */
function filterMetadata(
  metadata: Record<string, unknown> | undefined,
  allowed: RolePolicy["allowedRoleMetadata"],
): Record<string, unknown> | undefined {
  if (metadata === undefined) return undefined;
  const entries = Object.entries(metadata).filter(
    ([key, value]) =>
      value !== undefined &&
      value !== null &&
      allowed !== "none" &&
      (allowed === "all" || allowed.includes(key)),
  );
  return Object.fromEntries(entries);
}
