/**
 * Node's "Cannot find package 'NAME'" for an optional peer dependency: the package itself is absent, not
 * one of its own dependencies (a broken install must not pass for an absent package).
 */
export function isPackageMissing(error: unknown, packageName: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") &&
    typeof message === "string" &&
    message.includes(`'${packageName}'`)
  );
}
