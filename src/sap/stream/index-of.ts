import { type Ir, IrIndex } from "../../ir/index.js";

const indexes = new WeakMap<Ir, IrIndex>();

/** The lookup index of an IR, built once per IR object (callers may pass either). */
export function indexOf(ir: Ir | IrIndex): IrIndex {
  if (ir instanceof IrIndex) return ir;
  let index = indexes.get(ir);
  if (!index) {
    index = new IrIndex(ir);
    indexes.set(ir, index);
  }
  return index;
}
