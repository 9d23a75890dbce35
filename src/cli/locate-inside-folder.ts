import { realpath } from "node:fs/promises";
import { sep } from "node:path";

/**
 * Where `file` really is relative to `folder`, symlinks followed on both sides: `inside` (with its real
 * path), `outside` (`..`, an absolute path elsewhere, or a symlink that leads out), or `missing`. A path
 * check on the text alone would let `photos/link.png → /etc/passwd` through.
 */
export async function locateInsideFolder(
  folder: string,
  file: string,
): Promise<{ where: "inside"; path: string } | { where: "outside" | "missing" }> {
  const [root, real] = await Promise.all([
    realpath(folder).catch(() => undefined),
    realpath(file).catch(() => undefined),
  ]);
  if (root === undefined || real === undefined) return { where: "missing" };
  const prefix = root.endsWith(sep) ? root : root + sep;
  return real.startsWith(prefix) ? { where: "inside", path: real } : { where: "outside" };
}
