import type {
  Class,
  Client,
  Enum,
  Ir,
  LlmFunction,
  RetryPolicy,
  TemplateString,
  Type,
  TypeAlias,
} from "./types.js";

/** Name lookups over an IR, built once. The IR itself stays plain data. */
export class IrIndex {
  readonly classes = new Map<string, Class>();
  readonly enums = new Map<string, Enum>();
  readonly aliases = new Map<string, TypeAlias>();
  readonly functions = new Map<string, LlmFunction>();
  readonly clients = new Map<string, Client>();
  readonly retryPolicies = new Map<string, RetryPolicy>();
  readonly templateStrings = new Map<string, TemplateString>();

  constructor(readonly ir: Ir) {
    for (const item of ir.classes) this.classes.set(item.name, item);
    for (const item of ir.enums) this.enums.set(item.name, item);
    for (const item of ir.aliases) this.aliases.set(item.name, item);
    for (const item of ir.functions) this.functions.set(item.name, item);
    for (const item of ir.clients) this.clients.set(item.name, item);
    for (const item of ir.retryPolicies) this.retryPolicies.set(item.name, item);
    for (const item of ir.templateStrings) this.templateStrings.set(item.name, item);
  }

  getClass(name: string): Class {
    const found = this.classes.get(name);
    if (!found) throw new Error(`Unknown class "${name}" in the IR.`);
    return found;
  }

  getEnum(name: string): Enum {
    const found = this.enums.get(name);
    if (!found) throw new Error(`Unknown enum "${name}" in the IR.`);
    return found;
  }

  getAlias(name: string): TypeAlias {
    const found = this.aliases.get(name);
    if (!found) throw new Error(`Unknown type alias "${name}" in the IR.`);
    return found;
  }

  getFunction(name: string): LlmFunction {
    const found = this.functions.get(name);
    if (!found) throw new Error(`Unknown function "${name}" in the IR.`);
    return found;
  }

  /**
   * Follow alias references until a non-alias type. Attributes of the alias reference are kept on the
   * result only when the target has none (a recursive alias resolves one step at a time, so callers that
   * walk values must guard recursion themselves).
   */
  resolveAlias(type: Type): Type {
    let current = type;
    const seen = new Set<string>();
    while (current.kind === "alias") {
      if (seen.has(current.name)) throw new Error(`Alias cycle through "${current.name}".`);
      seen.add(current.name);
      const target = this.getAlias(current.name).type;
      current = target.attrs || !current.attrs ? target : { ...target, attrs: current.attrs };
    }
    return current;
  }
}
