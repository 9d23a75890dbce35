import type { Type } from "../ir/index.js";

/** A type built in code for a TypeBuilder: wraps an IR type, with BAML's `.list()` / `.optional()`. */
export class FieldType {
  constructor(readonly type: Type) {}

  /** `T[]`. */
  list(): FieldType {
    return new FieldType({ kind: "list", item: this.type });
  }

  /** `T?`. */
  optional(): FieldType {
    return this.type.kind === "optional" ? this : new FieldType({ kind: "optional", inner: this.type });
  }
}
