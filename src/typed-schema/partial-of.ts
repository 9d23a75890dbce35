/**
 * The type of a partial value of `T`, as the streaming parser gives it: any field may still be missing or
 * `null` (not written yet), lists hold the items so far, strings the text so far.
 */
export type PartialOf<T> = T extends string | number | boolean | bigint | symbol | null | undefined
  ? T | null
  : T extends readonly (infer Item)[]
    ? PartialOf<Item>[]
    : T extends object
      ? { [Key in keyof T]?: PartialOf<T[Key]> | null }
      : T | null;
