import { JinjaError } from "./jinja/jinja-error.js";
import { isFloat, isNumeric, toNumber } from "./jinja/numbers.js";
import { Callable } from "./jinja/values.js";

/** Functions every template can call, as in Minijinja: `range`, `dict`, `namespace`. */
export function builtinGlobals(): Record<string, unknown> {
  return {
    range: new Callable("range", ({ args }) => {
      const numbers = args.map((arg) => {
        if (!isNumeric(arg) || isFloat(arg))
          throw new JinjaError("invalid_call", "range() takes integers.", undefined);
        return toNumber(arg);
      });
      const [start, stop, step] =
        numbers.length === 1 ? [0, numbers[0] ?? 0, 1] : [numbers[0] ?? 0, numbers[1] ?? 0, numbers[2] ?? 1];
      if (step === 0) throw new JinjaError("invalid_call", "range() step must not be zero.", undefined);
      const result: number[] = [];
      for (let value = start; step > 0 ? value < stop : value > stop; value += step) {
        result.push(value);
        if (result.length > 100_000)
          throw new JinjaError("invalid_call", "range() is limited to 100000 items.", undefined);
      }
      return result;
    }),
    dict: new Callable("dict", ({ kwargs }) => ({ ...kwargs })),
    namespace: new Callable("namespace", ({ kwargs }) => ({ ...kwargs })),
  };
}
