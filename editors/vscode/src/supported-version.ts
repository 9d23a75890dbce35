/**
 * Which Sapling releases this extension can drive. The server protocol is LSP, but the commands the
 * extension sends (the "render prompt" lens) and the `sapling lsp` command itself came with 0.1, and a
 * 0.x minor release may change them: the extension accepts the minor series it was built with.
 */
export const supportedSaplingRange = { from: "0.1.0", below: "0.2.0" } as const;

function parts(version: string): [number, number, number] | undefined {
  const match = /^(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/.exec(version.trim());
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

function compare(left: [number, number, number], right: [number, number, number]): number {
  return left[0] - right[0] || left[1] - right[1] || left[2] - right[2];
}

/** Whether a Sapling version (from its package.json) is one this extension supports. */
export function isSupportedSaplingVersion(version: string): boolean {
  const found = parts(version);
  const from = parts(supportedSaplingRange.from);
  const below = parts(supportedSaplingRange.below);
  if (!found || !from || !below) return false;
  return compare(found, from) >= 0 && compare(found, below) < 0;
}
