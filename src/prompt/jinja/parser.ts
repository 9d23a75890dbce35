import type { Expression, Statement } from "./ast.js";
import { JinjaError } from "./jinja-error.js";
import { type Token, tokenize } from "./lexer.js";
import { float } from "./numbers.js";

/**
 * Recursive-descent parser for the Jinja subset BAML prompts use: `if`/`elif`/`else`, `for … in … [if …]`
 * with `else`, `set` (and block `set`), `macro`, `filter` blocks, `break`/`continue`, `raw`; expressions with
 * Jinja's precedence (`if else` < `or` < `and` < `not` < comparisons and `in` < `+ -` < `~` < `* / // %`
 * < `**` < unary < filters, tests and postfix). Long because it is one grammar.
 */
export function parseTemplate(source: string): Statement[] {
  const parser = new Parser(tokenize(source));
  const body = parser.parseBody([]);
  parser.expectEnd();
  return body;
}

/** Parses a lone expression (`@check` bodies): the text between `{{` and `}}`. */
export function parseExpression(source: string): Expression {
  const tokens = tokenize(`{{ ${source} }}`).map((token) => ({
    ...token,
    offset: Math.max(0, token.offset - 3),
  }));
  const parser = new Parser(tokens);
  return parser.parseLoneExpression();
}

const COMPARISON = new Set(["==", "!=", "<", "<=", ">", ">="]);

class Parser {
  private index = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(ahead = 0): Token {
    return this.tokens[Math.min(this.index + ahead, this.tokens.length - 1)] as Token;
  }
  private next(): Token {
    const token = this.peek();
    if (this.index < this.tokens.length - 1) this.index++;
    return token;
  }
  private isOperator(value: string, ahead = 0): boolean {
    const token = this.peek(ahead);
    return token.kind === "operator" && token.value === value;
  }
  private isName(value: string, ahead = 0): boolean {
    const token = this.peek(ahead);
    return token.kind === "name" && token.value === value;
  }
  private acceptOperator(value: string): boolean {
    if (!this.isOperator(value)) return false;
    this.next();
    return true;
  }
  private acceptName(value: string): boolean {
    if (!this.isName(value)) return false;
    this.next();
    return true;
  }
  private fail(message: string, token = this.peek()): never {
    throw new JinjaError("syntax_error", message, token.offset);
  }
  private expectOperator(value: string): Token {
    if (!this.isOperator(value)) this.fail(`Expected \`${value}\` but found ${describe(this.peek())}.`);
    return this.next();
  }
  private expectKind(kind: Token["kind"], what: string): Token {
    if (this.peek().kind !== kind) this.fail(`Expected ${what} but found ${describe(this.peek())}.`);
    return this.next();
  }
  private identifier(): string {
    return this.expectKind("name", "a name").value;
  }

  expectEnd(): void {
    if (this.peek().kind !== "end") this.fail(`Unexpected ${describe(this.peek())}.`);
  }

  parseLoneExpression(): Expression {
    this.expectKind("variable-start", "an expression");
    const expression = this.parseExpression();
    this.expectKind("variable-end", "the end of the expression");
    this.expectEnd();
    return expression;
  }

  /** Statements until one of `stops` (a block keyword) or the end; the stop tag is left unread. */
  parseBody(stops: string[], openedAt?: number): Statement[] {
    const body: Statement[] = [];
    for (;;) {
      const token = this.peek();
      if (token.kind === "end") {
        if (stops.length === 0) return body;
        const missing = `\`{% ${stops[stops.length - 1]} %}\``;
        if (openedAt === undefined) this.fail(`Missing ${missing}.`);
        throw new JinjaError("syntax_error", `This block is never closed: add ${missing}.`, openedAt);
      }
      if (token.kind === "text") {
        this.next();
        body.push({ kind: "text", value: token.value, offset: token.offset });
      } else if (token.kind === "variable-start") {
        this.next();
        const expression = this.parseExpression();
        this.expectKind("variable-end", "`}}`");
        body.push({ kind: "output", expression, offset: token.offset });
      } else if (token.kind === "block-start") {
        const keyword = this.peek(1);
        if (keyword.kind === "name" && stops.includes(keyword.value)) return body;
        this.next();
        body.push(this.parseStatement(token.offset));
      } else {
        this.fail(`Unexpected ${describe(token)}.`);
      }
    }
  }

  private endTag(keyword: string): void {
    this.expectKind("block-start", `\`{% ${keyword} %}\``);
    if (!this.acceptName(keyword)) this.fail(`Expected \`{% ${keyword} %}\`.`);
    this.expectKind("block-end", "`%}`");
  }

  private parseStatement(offset: number): Statement {
    const keyword = this.expectKind("name", "a statement keyword");
    switch (keyword.value) {
      case "if":
        return this.parseIf(offset);
      case "for":
        return this.parseFor(offset);
      case "set":
        return this.parseSet(offset);
      case "macro":
        return this.parseMacro(offset);
      case "filter":
        return this.parseFilterBlock(offset);
      case "break":
      case "continue":
        this.expectKind("block-end", "`%}`");
        return { kind: keyword.value, offset };
      default:
        return this.fail(
          `Unknown statement \`${keyword.value}\`: BAML prompts support if, for, set, macro, filter, raw, break and continue.`,
          keyword,
        );
    }
  }

  private parseIf(offset: number): Statement {
    const branches: { test: Expression; body: Statement[] }[] = [];
    let test = this.parseExpression();
    let otherwise: Statement[] = [];
    for (;;) {
      this.expectKind("block-end", "`%}`");
      const body = this.parseBody(["elif", "else", "endif"], offset);
      branches.push({ test, body });
      this.expectKind("block-start", "`{%`");
      const keyword = this.identifier();
      if (keyword === "elif") {
        test = this.parseExpression();
        continue;
      }
      if (keyword === "else") {
        this.expectKind("block-end", "`%}`");
        otherwise = this.parseBody(["endif"], offset);
        this.endTag("endif");
      } else {
        this.expectKind("block-end", "`%}`");
      }
      return { kind: "if", branches, otherwise, offset };
    }
  }

  private parseFor(offset: number): Statement {
    const targets = [this.identifier()];
    while (this.acceptOperator(",")) targets.push(this.identifier());
    if (!this.acceptName("in")) this.fail("Expected `in` after the loop variable.");
    const iterable = this.parseConditionalFree();
    const condition = this.acceptName("if") ? this.parseConditionalFree() : undefined;
    this.expectKind("block-end", "`%}`");
    const body = this.parseBody(["else", "endfor"], offset);
    let otherwise: Statement[] = [];
    this.expectKind("block-start", "`{%`");
    if (this.acceptName("else")) {
      this.expectKind("block-end", "`%}`");
      otherwise = this.parseBody(["endfor"], offset);
      this.endTag("endfor");
    } else {
      this.identifier();
      this.expectKind("block-end", "`%}`");
    }
    return { kind: "for", targets, iterable, ...(condition ? { condition } : {}), body, otherwise, offset };
  }

  private parseSet(offset: number): Statement {
    const first = this.parsePrimaryWithPostfix();
    const targets = [first];
    while (this.acceptOperator(",")) targets.push(this.parsePrimaryWithPostfix());
    if (this.peek().kind === "block-end" && targets.length === 1 && first.kind === "name") {
      this.next();
      const body = this.parseBody(["endset"], offset);
      this.endTag("endset");
      return { kind: "set-block", target: first.name, body, offset };
    }
    this.expectOperator("=");
    const value = this.parseExpression();
    this.expectKind("block-end", "`%}`");
    return { kind: "set", targets, value, offset };
  }

  private parseMacro(offset: number): Statement {
    const name = this.identifier();
    this.expectOperator("(");
    const params: { name: string; default?: Expression }[] = [];
    while (!this.acceptOperator(")")) {
      const param = this.identifier();
      params.push(
        this.acceptOperator("=") ? { name: param, default: this.parseExpression() } : { name: param },
      );
      if (!this.isOperator(")")) this.expectOperator(",");
    }
    this.expectKind("block-end", "`%}`");
    const body = this.parseBody(["endmacro"], offset);
    this.endTag("endmacro");
    return { kind: "macro", name, params, body, offset };
  }

  private parseFilterBlock(offset: number): Statement {
    const filters: { name: string; args: Expression[]; kwargs: [string, Expression][]; offset: number }[] =
      [];
    do {
      const token = this.peek();
      const name = this.identifier();
      const { args, kwargs } = this.isOperator("(") ? this.parseArguments() : { args: [], kwargs: [] };
      filters.push({ name, args, kwargs, offset: token.offset });
    } while (this.acceptOperator("|"));
    this.expectKind("block-end", "`%}`");
    const body = this.parseBody(["endfilter"], offset);
    this.endTag("endfilter");
    return { kind: "filter-block", filters, body, offset };
  }

  parseExpression(): Expression {
    const start = this.peek().offset;
    const value = this.parseOr();
    if (this.isName("if")) {
      this.next();
      const test = this.parseOr();
      const otherwise = this.acceptName("else") ? this.parseExpression() : undefined;
      return {
        kind: "conditional",
        test,
        whenTrue: value,
        ...(otherwise ? { otherwise } : {}),
        offset: start,
      };
    }
    return value;
  }

  /** An expression without a trailing `if … else` (loop iterables, where `if` starts a loop filter). */
  private parseConditionalFree(): Expression {
    return this.parseOr();
  }

  private parseOr(): Expression {
    let left = this.parseAnd();
    while (this.isName("or")) {
      const token = this.next();
      left = { kind: "binary", operator: "or", left, right: this.parseAnd(), offset: token.offset };
    }
    return left;
  }

  private parseAnd(): Expression {
    let left = this.parseNot();
    while (this.isName("and")) {
      const token = this.next();
      left = { kind: "binary", operator: "and", left, right: this.parseNot(), offset: token.offset };
    }
    return left;
  }

  private parseNot(): Expression {
    if (this.isName("not")) {
      const token = this.next();
      return { kind: "unary", operator: "not", operand: this.parseNot(), offset: token.offset };
    }
    return this.parseComparison();
  }

  private parseComparison(): Expression {
    let left = this.parseAdditive();
    for (;;) {
      const token = this.peek();
      if (token.kind === "operator" && COMPARISON.has(token.value)) {
        this.next();
        left = {
          kind: "binary",
          operator: token.value,
          left,
          right: this.parseAdditive(),
          offset: token.offset,
        };
      } else if (this.isName("in")) {
        this.next();
        left = { kind: "binary", operator: "in", left, right: this.parseAdditive(), offset: token.offset };
      } else if (this.isName("not") && this.isName("in", 1)) {
        this.next();
        this.next();
        left = {
          kind: "binary",
          operator: "not in",
          left,
          right: this.parseAdditive(),
          offset: token.offset,
        };
      } else {
        return left;
      }
    }
  }

  private parseAdditive(): Expression {
    let left = this.parseConcat();
    while (this.isOperator("+") || this.isOperator("-")) {
      const token = this.next();
      left = { kind: "binary", operator: token.value, left, right: this.parseConcat(), offset: token.offset };
    }
    return left;
  }

  private parseConcat(): Expression {
    let left = this.parseMultiplicative();
    while (this.isOperator("~")) {
      const token = this.next();
      left = { kind: "binary", operator: "~", left, right: this.parseMultiplicative(), offset: token.offset };
    }
    return left;
  }

  private parseMultiplicative(): Expression {
    let left = this.parsePower();
    while (["*", "/", "//", "%"].some((operator) => this.isOperator(operator))) {
      const token = this.next();
      left = { kind: "binary", operator: token.value, left, right: this.parsePower(), offset: token.offset };
    }
    return left;
  }

  private parsePower(): Expression {
    let left = this.parseUnary();
    while (this.isOperator("**")) {
      const token = this.next();
      left = { kind: "binary", operator: "**", left, right: this.parseUnary(), offset: token.offset };
    }
    return left;
  }

  private parseUnary(): Expression {
    if (this.isOperator("-") || this.isOperator("+")) {
      const token = this.next();
      const operand = this.parseUnary();
      return { kind: "unary", operator: token.value as "-" | "+", operand, offset: token.offset };
    }
    return this.parseFiltersAndTests(this.parsePrimaryWithPostfix());
  }

  private parseFiltersAndTests(start: Expression): Expression {
    let value = start;
    for (;;) {
      if (this.isOperator("|")) {
        this.next();
        const token = this.peek();
        const name = this.identifier();
        const { args, kwargs } = this.isOperator("(") ? this.parseArguments() : { args: [], kwargs: [] };
        value = { kind: "filter", value, name, args, kwargs, offset: token.offset };
      } else if (this.isName("is")) {
        this.next();
        const negated = this.acceptName("not");
        const token = this.peek();
        const name =
          token.kind === "name"
            ? this.identifier()
            : token.kind === "operator"
              ? this.next().value
              : this.identifier();
        const args: Expression[] = [];
        if (this.isOperator("(")) args.push(...this.parseArguments().args);
        else if (startsPrimary(this.peek())) args.push(this.parsePrimaryWithPostfix());
        value = { kind: "test", value, name, args, negated, offset: token.offset };
      } else {
        return value;
      }
    }
  }

  private parseArguments(): { args: Expression[]; kwargs: [string, Expression][] } {
    this.expectOperator("(");
    const args: Expression[] = [];
    const kwargs: [string, Expression][] = [];
    while (!this.acceptOperator(")")) {
      if (this.peek().kind === "name" && this.isOperator("=", 1)) {
        const name = this.next().value;
        this.next();
        kwargs.push([name, this.parseExpression()]);
      } else {
        if (kwargs.length > 0) this.fail("Positional arguments must come before keyword arguments.");
        args.push(this.parseExpression());
      }
      if (!this.isOperator(")")) this.expectOperator(",");
    }
    return { args, kwargs };
  }

  private parsePrimaryWithPostfix(): Expression {
    let value = this.parsePrimary();
    for (;;) {
      const token = this.peek();
      if (this.acceptOperator(".")) {
        const name = this.peek();
        if (name.kind === "integer") {
          this.next();
          value = {
            kind: "item",
            object: value,
            index: { kind: "literal", value: Number(name.value), offset: name.offset },
            offset: token.offset,
          };
        } else {
          value = { kind: "attribute", object: value, name: this.identifier(), offset: name.offset };
        }
      } else if (this.isOperator("[")) {
        this.next();
        value = this.parseSubscript(value, token.offset);
      } else if (this.isOperator("(")) {
        const { args, kwargs } = this.parseArguments();
        value = { kind: "call", callee: value, args, kwargs, offset: value.offset };
      } else {
        return value;
      }
    }
  }

  private parseSubscript(object: Expression, offset: number): Expression {
    const part = (): Expression | undefined =>
      this.isOperator(":") || this.isOperator("]") ? undefined : this.parseExpression();
    const start = part();
    if (this.acceptOperator("]")) {
      if (!start) this.fail("Empty subscript `[]`.");
      return { kind: "item", object, index: start, offset };
    }
    this.expectOperator(":");
    const stop = part();
    const step = this.acceptOperator(":") ? part() : undefined;
    this.expectOperator("]");
    return {
      kind: "slice",
      object,
      ...(start ? { start } : {}),
      ...(stop ? { stop } : {}),
      ...(step ? { step } : {}),
      offset,
    };
  }

  private parsePrimary(): Expression {
    const token = this.next();
    const offset = token.offset;
    switch (token.kind) {
      case "string": {
        let value = token.value;
        while (this.peek().kind === "string") value += this.next().value;
        return { kind: "literal", value, offset };
      }
      case "integer":
        return { kind: "literal", value: Number(token.value), offset };
      case "float":
        return { kind: "literal", value: float(Number(token.value)), offset };
      case "name":
        if (token.value === "true" || token.value === "True") return { kind: "literal", value: true, offset };
        if (token.value === "false" || token.value === "False")
          return { kind: "literal", value: false, offset };
        if (token.value === "none" || token.value === "None" || token.value === "null")
          return { kind: "literal", value: null, offset };
        return { kind: "name", name: token.value, offset };
      case "operator":
        if (token.value === "(") {
          if (this.acceptOperator(")")) return { kind: "tuple", items: [], offset };
          const first = this.parseExpression();
          if (this.acceptOperator(")")) return first;
          const items = [first];
          while (this.acceptOperator(",")) {
            if (this.isOperator(")")) break;
            items.push(this.parseExpression());
          }
          this.expectOperator(")");
          return { kind: "tuple", items, offset };
        }
        if (token.value === "[") {
          const items: Expression[] = [];
          while (!this.acceptOperator("]")) {
            items.push(this.parseExpression());
            if (!this.isOperator("]")) this.expectOperator(",");
          }
          return { kind: "list", items, offset };
        }
        if (token.value === "{") {
          const entries: [Expression, Expression][] = [];
          while (!this.acceptOperator("}")) {
            const key = this.parseExpression();
            this.expectOperator(":");
            entries.push([key, this.parseExpression()]);
            if (!this.isOperator("}")) this.expectOperator(",");
          }
          return { kind: "dict", entries, offset };
        }
        return this.fail(`Unexpected \`${token.value}\` in an expression.`, token);
      default:
        return this.fail(`Expected an expression but found ${describe(token)}.`, token);
    }
  }
}

function startsPrimary(token: Token): boolean {
  if (token.kind === "string" || token.kind === "integer" || token.kind === "float") return true;
  return token.kind === "name" && !["and", "or", "not", "in", "is", "if", "else"].includes(token.value);
}

function describe(token: Token): string {
  switch (token.kind) {
    case "end":
      return "the end of the template";
    case "text":
      return "text";
    case "variable-end":
      return "`}}`";
    case "block-end":
      return "`%}`";
    case "variable-start":
      return "`{{`";
    case "block-start":
      return "`{%`";
    default:
      return `\`${token.value}\``;
  }
}
