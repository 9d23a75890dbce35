/** Syntax tree of a Jinja template. Every node keeps the offset of its first token, for error messages. */
export type Expression =
  | { kind: "literal"; value: unknown; offset: number }
  | { kind: "name"; name: string; offset: number }
  | { kind: "list"; items: Expression[]; offset: number }
  | { kind: "tuple"; items: Expression[]; offset: number }
  | { kind: "dict"; entries: [Expression, Expression][]; offset: number }
  | { kind: "attribute"; object: Expression; name: string; offset: number }
  | { kind: "item"; object: Expression; index: Expression; offset: number }
  | {
      kind: "slice";
      object: Expression;
      start?: Expression;
      stop?: Expression;
      step?: Expression;
      offset: number;
    }
  | { kind: "call"; callee: Expression; args: Expression[]; kwargs: [string, Expression][]; offset: number }
  | {
      kind: "filter";
      value: Expression;
      name: string;
      args: Expression[];
      kwargs: [string, Expression][];
      offset: number;
    }
  | { kind: "test"; value: Expression; name: string; args: Expression[]; negated: boolean; offset: number }
  | { kind: "unary"; operator: "not" | "-" | "+"; operand: Expression; offset: number }
  | { kind: "binary"; operator: string; left: Expression; right: Expression; offset: number }
  | { kind: "conditional"; test: Expression; whenTrue: Expression; otherwise?: Expression; offset: number };

export type Statement =
  | { kind: "text"; value: string; offset: number }
  | { kind: "output"; expression: Expression; offset: number }
  | {
      kind: "if";
      branches: { test: Expression; body: Statement[] }[];
      otherwise: Statement[];
      offset: number;
    }
  | {
      kind: "for";
      targets: string[];
      iterable: Expression;
      condition?: Expression;
      body: Statement[];
      otherwise: Statement[];
      offset: number;
    }
  | { kind: "set"; targets: Expression[]; value: Expression; offset: number }
  | { kind: "set-block"; target: string; body: Statement[]; offset: number }
  | {
      kind: "macro";
      name: string;
      params: { name: string; default?: Expression }[];
      body: Statement[];
      offset: number;
    }
  | {
      kind: "filter-block";
      filters: { name: string; args: Expression[]; kwargs: [string, Expression][]; offset: number }[];
      body: Statement[];
      offset: number;
    }
  | { kind: "break"; offset: number }
  | { kind: "continue"; offset: number };
