import { hasErrorMark, markError } from "../util/index.js";
/**
 * A project the generator cannot turn into valid TypeScript (a declared name that collides with a name the
 * generated client needs, an unknown type reference). The compiler's checker catches most of these as
 * diagnostics; this is the generator's last line of defence, so the client is never written half-broken.
 */
export class CodegenError extends Error {
  readonly code: "CODEGEN_NAME_COLLISION" | "CODEGEN_UNKNOWN_REFERENCE" | "CODEGEN_UNSUPPORTED";
  constructor(code: CodegenError["code"], message: string) {
    super(message);
    this.name = "CodegenError";
    this.code = code;
    markError(this, "CodegenError");
  }

  /** `instanceof` that also works across two copies of the package. */
  static isInstance(value: unknown): value is CodegenError {
    return hasErrorMark(value, "CodegenError");
  }
}
