import type { Type } from "../ir/index.js";
import { stableStringify } from "../util/index.js";

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

  /** Whether both describe the same type (structure, names and attributes; BAML's `FieldType.equals`). */
  equals(other: FieldType): boolean {
    return stableStringify(this.type) === stableStringify(other.type);
  }
}
