/** Variables visible at one point of a template: a frame plus the frames around it. */
export class Scope {
  private readonly variables = new Map<string, unknown>();
  constructor(private readonly parent?: Scope) {}

  has(name: string): boolean {
    return this.variables.has(name) || (this.parent?.has(name) ?? false);
  }

  get(name: string): unknown {
    if (this.variables.has(name)) return this.variables.get(name);
    return this.parent?.get(name);
  }

  set(name: string, value: unknown): void {
    this.variables.set(name, value);
  }

  child(): Scope {
    return new Scope(this);
  }

  /** Every visible name, nearest first, for "did you mean" hints. */
  names(): string[] {
    return [...new Set([...this.variables.keys(), ...(this.parent?.names() ?? [])])];
  }
}
