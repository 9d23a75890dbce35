import { OutputFormatError } from "../../output-schema/index.js";
import type { Expression, Statement } from "./ast.js";
import { FILTERS, type FilterEnvironment } from "./filters.js";
import { JinjaError } from "./jinja-error.js";
import { findMethod } from "./methods.js";
import { arithmetic, float, isFloat, isNumeric, toNumber } from "./numbers.js";
import type { Scope } from "./scope.js";
import { checkTextLength, ownEntry } from "./template-limits.js";
import { contains, TESTS } from "./tests.js";
import {
  Callable,
  ClassInstance,
  compareValues,
  displayValue,
  EnumType,
  EnumValue,
  isMap,
  isTruthy,
  iterate,
  type MediaToken,
  stringValue,
  typeName,
  valuesEqual,
} from "./values.js";

class LoopSignal {
  constructor(readonly kind: "break" | "continue") {}
}

/**
 * Renders parsed templates. One class because statements, expressions, calls and lookups share the scope
 * chain and the error-location rules; long for the same reason the parser is: it is one language. Errors are `JinjaError`s carrying the offset of the node that failed and, when
 * raised inside a macro from another template (a `template_string`), that template's name.
 */
export class Evaluator {
  private readonly filterEnvironment: FilterEnvironment;

  constructor(private readonly media: MediaToken) {
    this.filterEnvironment = { media, getAttribute: (value, name) => this.getAttribute(value, name) };
  }

  render(statements: Statement[], scope: Scope, templateName?: string): string {
    let output = "";
    for (const statement of statements) {
      const piece = this.execute(statement, scope, templateName);
      checkTextLength(output.length + piece.length, "The rendered template");
      output += piece;
    }
    return output;
  }

  /** Defines the macros of a template (template strings) in `scope` without rendering anything else. */
  defineMacros(statements: Statement[], scope: Scope, templateName: string): void {
    for (const statement of statements) {
      if (statement.kind === "macro") this.execute(statement, scope, templateName);
    }
  }

  evaluate(expression: Expression, scope: Scope): unknown {
    try {
      return this.evaluateUnlocated(expression, scope);
    } catch (error) {
      throw locate(error, expression.offset);
    }
  }

  private execute(statement: Statement, scope: Scope, templateName: string | undefined): string {
    try {
      return this.executeUnlocated(statement, scope, templateName);
    } catch (error) {
      if (error instanceof LoopSignal) throw error;
      throw locate(error, statement.offset);
    }
  }

  private executeUnlocated(statement: Statement, scope: Scope, templateName: string | undefined): string {
    switch (statement.kind) {
      case "text":
        return statement.value;
      case "output":
        return displayValue(this.evaluate(statement.expression, scope), this.media);
      case "if": {
        for (const branch of statement.branches) {
          if (isTruthy(this.evaluate(branch.test, scope)))
            return this.render(branch.body, scope, templateName);
        }
        return this.render(statement.otherwise, scope, templateName);
      }
      case "for":
        return this.executeFor(statement, scope, templateName);
      case "set": {
        const value = this.evaluate(statement.value, scope);
        if (statement.targets.length === 1 && statement.targets[0])
          this.assign(statement.targets[0], value, scope);
        else {
          const items = unpack(value, statement.targets.length, undefined, statement.offset);
          for (const [position, target] of statement.targets.entries())
            this.assign(target, items[position], scope);
        }
        return "";
      }
      case "set-block":
        scope.set(statement.target, this.render(statement.body, scope.child(), templateName));
        return "";
      case "macro":
        scope.set(statement.name, this.macro(statement, scope, templateName));
        return "";
      case "filter-block": {
        let value: unknown = this.render(statement.body, scope.child(), templateName);
        for (const filter of statement.filters) {
          const call = this.arguments(filter.args, filter.kwargs, scope);
          try {
            value = this.applyFilter(filter.name, value, call);
          } catch (error) {
            throw locate(error, filter.offset);
          }
        }
        return displayValue(value, this.media);
      }
      case "break":
      case "continue":
        throw new LoopSignal(statement.kind);
    }
  }

  private executeFor(
    statement: Extract<Statement, { kind: "for" }>,
    scope: Scope,
    templateName: string | undefined,
  ): string {
    // BAML (Minijinja) loops over none as over an empty list: optional list parameters render nothing.
    const value = this.evaluate(statement.iterable, scope);
    const source = value === null ? [] : value;
    // Looping over a map (named) gives its keys, which do not unpack: say how to get the values too.
    const mapName = isMap(source) && statement.iterable.kind === "name" ? statement.iterable.name : undefined;
    const bind = (target: Scope, item: unknown): void => {
      if (statement.targets.length === 1) target.set(statement.targets[0] ?? "", item);
      else {
        const parts = unpack(item, statement.targets.length, mapName, statement.offset);
        for (const [position, name] of statement.targets.entries()) target.set(name, parts[position]);
      }
    };
    let items = iterate(source);
    if (statement.condition) {
      const condition = statement.condition;
      items = items.filter((item) => {
        const probe = scope.child();
        bind(probe, item);
        return isTruthy(this.evaluate(condition, probe));
      });
    }
    if (items.length === 0) return this.render(statement.otherwise, scope.child(), templateName);
    let output = "";
    for (let index = 0; index < items.length; index++) {
      const iteration = scope.child();
      bind(iteration, items[index]);
      iteration.set("loop", {
        index: index + 1,
        index0: index,
        revindex: items.length - index,
        revindex0: items.length - index - 1,
        first: index === 0,
        last: index === items.length - 1,
        length: items.length,
        previtem: items[index - 1],
        nextitem: items[index + 1],
        cycle: new Callable("cycle", ({ args }) => args[index % Math.max(args.length, 1)]),
      });
      try {
        const piece = this.render(statement.body, iteration, templateName);
        checkTextLength(output.length + piece.length, "The rendered template");
        output += piece;
      } catch (error) {
        if (!(error instanceof LoopSignal)) throw error;
        if (error.kind === "break") break;
      }
    }
    return output;
  }

  private assign(target: Expression, value: unknown, scope: Scope): void {
    if (target.kind === "name") {
      scope.set(target.name, value);
      return;
    }
    if (target.kind === "attribute") {
      const object = this.evaluate(target.object, scope);
      if (isMap(object)) {
        object[target.name] = value;
        return;
      }
    }
    throw new JinjaError(
      "syntax_error",
      "Only names and namespace attributes can be assigned with `set`.",
      target.offset,
    );
  }

  private macro(
    statement: Extract<Statement, { kind: "macro" }>,
    definitionScope: Scope,
    templateName: string | undefined,
  ): Callable {
    return new Callable(statement.name, ({ args, kwargs }) => {
      const frame = definitionScope.child();
      const known = new Set(statement.params.map((param) => param.name));
      for (const name of Object.keys(kwargs)) {
        if (!known.has(name))
          throw new JinjaError(
            "invalid_call",
            `${statement.name}() got an unexpected argument \`${name}\`.`,
            undefined,
          );
      }
      if (args.length > statement.params.length)
        throw new JinjaError(
          "invalid_call",
          `${statement.name}() takes ${statement.params.length} arguments but got ${args.length}.`,
          undefined,
        );
      try {
        statement.params.forEach((param, index) => {
          if (index < args.length) frame.set(param.name, args[index]);
          else if (Object.hasOwn(kwargs, param.name)) frame.set(param.name, kwargs[param.name]);
          else frame.set(param.name, param.default ? this.evaluate(param.default, frame) : undefined);
        });
        return this.render(statement.body, frame, templateName);
      } catch (error) {
        if (error instanceof JinjaError && error.templateName === undefined && templateName !== undefined) {
          error.templateName = templateName;
        }
        throw error;
      }
    });
  }

  private arguments(
    args: Expression[],
    kwargs: [string, Expression][],
    scope: Scope,
  ): { args: unknown[]; kwargs: Record<string, unknown> } {
    return {
      args: args.map((arg) => this.evaluate(arg, scope)),
      kwargs: Object.fromEntries(kwargs.map(([name, value]) => [name, this.evaluate(value, scope)])),
    };
  }

  private applyFilter(
    name: string,
    value: unknown,
    call: { args: unknown[]; kwargs: Record<string, unknown> },
  ): unknown {
    const filter = ownEntry(FILTERS, name);
    if (!filter) throw new JinjaError("unknown_filter", `Unknown filter \`${name}\`.`, undefined);
    return filter(value, call, this.filterEnvironment);
  }

  private evaluateUnlocated(expression: Expression, scope: Scope): unknown {
    switch (expression.kind) {
      case "literal":
        return expression.value;
      case "name": {
        if (scope.has(expression.name)) return scope.get(expression.name);
        const names = scope.names().filter((name) => !name.startsWith("__"));
        throw new JinjaError(
          "unknown_variable",
          `Variable \`${expression.name}\` is not defined. Variables here: ${names.join(", ")}.`,
          expression.offset,
        );
      }
      case "list":
      case "tuple":
        return expression.items.map((item) => this.evaluate(item, scope));
      case "dict": {
        const result: Record<string, unknown> = {};
        for (const [key, value] of expression.entries) {
          result[String(this.evaluate(key, scope))] = this.evaluate(value, scope);
        }
        return result;
      }
      case "attribute":
        return this.getAttribute(this.evaluate(expression.object, scope), expression.name);
      case "item":
        return this.getItem(this.evaluate(expression.object, scope), this.evaluate(expression.index, scope));
      case "slice":
        return this.slice(expression, scope);
      case "call": {
        const callee = this.evaluate(expression.callee, scope);
        const call = this.arguments(expression.args, expression.kwargs, scope);
        if (!(callee instanceof Callable))
          throw new JinjaError("invalid_call", `${typeName(callee)} is not callable.`, expression.offset);
        try {
          return callee.invoke(call);
        } catch (error) {
          if (OutputFormatError.isInstance(error))
            throw new JinjaError(error.code, error.message, expression.offset);
          throw error;
        }
      }
      case "filter": {
        const lenient = expression.name === "default" || expression.name === "d";
        const value = lenient
          ? this.evaluateMaybeUndefined(expression.value, scope)
          : this.evaluate(expression.value, scope);
        return this.applyFilter(
          expression.name,
          value,
          this.arguments(expression.args, expression.kwargs, scope),
        );
      }
      case "test": {
        const test = ownEntry(TESTS, expression.name);
        if (!test)
          throw new JinjaError("unknown_filter", `Unknown test \`${expression.name}\`.`, expression.offset);
        const value = this.evaluateMaybeUndefined(expression.value, scope);
        const passed = test(
          value,
          expression.args.map((arg) => this.evaluate(arg, scope)),
        );
        return expression.negated ? !passed : passed;
      }
      case "unary": {
        const operand = this.evaluate(expression.operand, scope);
        if (expression.operator === "not") return !isTruthy(operand);
        if (!isNumeric(operand))
          throw new JinjaError("type_error", `Cannot negate ${typeName(operand)}.`, expression.offset);
        if (expression.operator === "+") return operand;
        return isFloat(operand) ? float(-toNumber(operand)) : -toNumber(operand);
      }
      case "binary":
        return this.binary(expression, scope);
      case "conditional":
        if (isTruthy(this.evaluate(expression.test, scope))) return this.evaluate(expression.whenTrue, scope);
        return expression.otherwise ? this.evaluate(expression.otherwise, scope) : undefined;
    }
  }

  /** `x is defined` and `x | default(…)` may name a variable that does not exist: it is undefined. */
  private evaluateMaybeUndefined(expression: Expression, scope: Scope): unknown {
    if (expression.kind === "name" && !scope.has(expression.name)) return undefined;
    return this.evaluate(expression, scope);
  }

  private binary(expression: Extract<Expression, { kind: "binary" }>, scope: Scope): unknown {
    const left = this.evaluate(expression.left, scope);
    if (expression.operator === "and") return isTruthy(left) ? this.evaluate(expression.right, scope) : left;
    if (expression.operator === "or") return isTruthy(left) ? left : this.evaluate(expression.right, scope);
    const right = this.evaluate(expression.right, scope);
    switch (expression.operator) {
      case "==":
        return valuesEqual(left, right);
      case "!=":
        return !valuesEqual(left, right);
      case "<":
        return compareValues(left, right) < 0;
      case "<=":
        return compareValues(left, right) <= 0;
      case ">":
        return compareValues(left, right) > 0;
      case ">=":
        return compareValues(left, right) >= 0;
      case "in":
        return contains(right, left);
      case "not in":
        return !contains(right, left);
      case "~": {
        const [before, after] = [stringValue(left, this.media), stringValue(right, this.media)];
        checkTextLength(before.length + after.length, "The joined string (`~`)");
        return before + after;
      }
      case "+":
        if (typeof left === "string" && typeof right === "string") {
          checkTextLength(left.length + right.length, "The joined string (`+`)");
          return left + right;
        }
        if (Array.isArray(left) && Array.isArray(right)) return [...left, ...right];
        break;
      case "*":
        if (typeof left === "string" && isNumeric(right) && !isFloat(right)) {
          const count = Math.max(0, toNumber(right));
          checkTextLength(left.length * count, `The repeated string (\`* ${count}\`)`);
          return left.repeat(count);
        }
        break;
    }
    if (isNumeric(left) && isNumeric(right)) {
      if (["/", "//", "%"].includes(expression.operator) && toNumber(right) === 0) {
        throw new JinjaError("type_error", "Division by zero.", expression.offset);
      }
      const result = arithmetic(expression.operator, left, right);
      if (result !== undefined) return result;
    }
    throw new JinjaError(
      "type_error",
      `Cannot apply \`${expression.operator}\` to ${typeName(left)} and ${typeName(right)}.`,
      expression.offset,
    );
  }

  getAttribute(value: unknown, name: string): unknown {
    if (value === null || value === undefined) {
      throw new JinjaError("type_error", `Cannot read \`${name}\` of ${typeName(value)}.`, undefined);
    }
    if (value instanceof EnumType) {
      const found = value.values.get(name);
      if (!found)
        throw new JinjaError("type_error", `Enum ${value.name} has no value \`${name}\`.`, undefined);
      return found;
    }
    if (value instanceof EnumValue) return name === "value" ? value.value : undefined;
    if (value instanceof ClassInstance && value.fields.has(name)) return value.fields.get(name);
    if (isMap(value) && Object.hasOwn(value, name)) return value[name];
    return findMethod(value, name);
  }

  private getItem(value: unknown, key: unknown): unknown {
    if (Array.isArray(value) || typeof value === "string") {
      if (!isNumeric(key) || isFloat(key))
        throw new JinjaError("type_error", `A ${typeName(value)} index must be an int.`, undefined);
      const position = toNumber(key);
      const index = position < 0 ? value.length + position : position;
      return Array.isArray(value) ? value[index] : value[index];
    }
    if (typeof key === "string" || key instanceof EnumValue) {
      return this.getAttribute(value, key instanceof EnumValue ? key.value : key);
    }
    if (value === null || value === undefined)
      throw new JinjaError("type_error", `Cannot index ${typeName(value)}.`, undefined);
    return undefined;
  }

  private slice(expression: Extract<Expression, { kind: "slice" }>, scope: Scope): unknown {
    const value = this.evaluate(expression.object, scope);
    const items = typeof value === "string" ? [...value] : Array.isArray(value) ? value : undefined;
    if (!items) throw new JinjaError("type_error", `Cannot slice ${typeName(value)}.`, undefined);
    const bound = (part: Expression | undefined): number | undefined => {
      const result = part ? this.evaluate(part, scope) : undefined;
      return isNumeric(result) ? toNumber(result) : undefined;
    };
    const step = bound(expression.step) ?? 1;
    const normalize = (index: number | undefined, fallback: number): number => {
      if (index === undefined) return fallback;
      const resolved = index < 0 ? items.length + index : index;
      return Math.min(Math.max(resolved, step > 0 ? 0 : -1), step > 0 ? items.length : items.length - 1);
    };
    const start = normalize(bound(expression.start), step > 0 ? 0 : items.length - 1);
    const stop = normalize(bound(expression.stop), step > 0 ? items.length : -1);
    const result: unknown[] = [];
    for (let index = start; step > 0 ? index < stop : index > stop; index += step) result.push(items[index]);
    return typeof value === "string" ? result.join("") : result;
  }
}

/** Attaches `offset` to an error that has none yet; other exceptions become `JinjaError`s. */
function locate(error: unknown, offset: number): unknown {
  if (error instanceof LoopSignal) return error;
  if (error instanceof JinjaError) {
    if (error.offset === undefined) error.offset = offset;
    return error;
  }
  if (OutputFormatError.isInstance(error)) return new JinjaError(error.code, error.message, offset);
  const message = error instanceof Error ? error.message : String(error);
  return new JinjaError("type_error", message, offset);
}

/**
 * Minijinja's unpacking (`for k, v in …`, `set a, b = …`): only a list of exactly as many items unpacks.
 * A string is not split into characters and a map key is not split, as BAML fails on both.
 */
function unpack(value: unknown, count: number, mapName: string | undefined, offset: number): unknown[] {
  if (Array.isArray(value) && value.length === count) return value;
  const what = Array.isArray(value) ? `${value.length} values` : typeName(value);
  const hint = mapName === undefined ? "" : ` Use \`${mapName}.items()\`.`;
  throw new JinjaError("type_error", `Cannot unpack ${what} into ${count} names.${hint}`, offset);
}
