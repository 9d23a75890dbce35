import type { blockedAddressKind } from "./blocked-address.js";
import type { allowedHostProblem } from "./media-url-policy.js";

/** The host checks of the media URL policy, for a host that validates its settings (the CLI's flags). */
export interface AddressChecks {
  /** Why a `--allow-media-host` entry is not a host pattern, or `undefined` when it is. */
  allowedHostProblem: typeof allowedHostProblem;
  /** The kind of reserved address an IP address is (`loopback`, `private`, …), or `undefined`. */
  blockedAddressKind: typeof blockedAddressKind;
}

/**
 * The media URL policy's host checks, loaded with `import()`: the policy is the media URL downloader's
 * (it loads with it, for calls that send media by URL), and the runtime entry, which imports this room's
 * door, should not ship it to every page (docs/decisions/0043-lazy-call-path.md).
 */
export async function loadAddressChecks(): Promise<AddressChecks> {
  const [{ allowedHostProblem }, { blockedAddressKind }] = await Promise.all([
    import("./media-url-policy.js"),
    import("./blocked-address.js"),
  ]);
  return { allowedHostProblem, blockedAddressKind };
}
