import { describe, expect, it } from "vitest";
import { builtinGlobals } from "../template-globals.js";
import { Evaluator } from "./evaluator.js";
import { JinjaError } from "./jinja-error.js";
import { parseTemplate } from "./parser.js";
import { Scope } from "./scope.js";
import { ClassInstance, EnumType, EnumValue } from "./values.js";

function render(template: string, variables: Record<string, unknown> = {}): string {
  const scope = new Scope();
  for (const [name, value] of Object.entries({ ...builtinGlobals(), ...variables })) scope.set(name, value);
  return new Evaluator(() => "<media>").render(parseTemplate(template), scope);
}

function failure(template: string, variables: Record<string, unknown> = {}): JinjaError {
  try {
    render(template, variables);
  } catch (error) {
    if (error instanceof JinjaError) return error;
    throw error;
  }
  throw new Error("expected the template to fail");
}

describe("whitespace rules (trim_blocks, lstrip_blocks, - and +)", () => {
  it("removes the newline after a block tag and the indentation before it", () => {
    expect(render("a\n  {% if true %}\n  b\n  {% endif %}\nc")).toBe("a\n  b\nc");
  });
  it("keeps the newline after an expression tag", () => {
    expect(render("{{ 1 }}\n{{ 2 }}")).toBe("1\n2");
  });
  it("does not strip indentation when text precedes the tag on its line", () => {
    expect(render("x  {% if true %}y{% endif %}")).toBe("x  y");
  });
  it("strips all whitespace on the side of a dash", () => {
    expect(render("a   \n\n{{- 'b' -}}  \n  c")).toBe("abc");
  });
  it("`+` keeps the indentation lstrip_blocks would remove", () => {
    expect(render("  {%+ if true %}x{% endif %}")).toBe("  x");
  });
  it("comments render nothing and follow the block rules", () => {
    expect(render("a\n  {# note #}\nb")).toBe("a\nb");
  });
  it("raw blocks keep their content verbatim", () => {
    expect(render("{% raw %}{{ x }} {% if %}{% endraw %}")).toBe("{{ x }} {% if %}");
  });
});

describe("expressions", () => {
  it("follows Jinja precedence", () => {
    expect(render("{{ 1 + 2 * 3 }} {{ (1 + 2) * 3 }} {{ 2 ** 3 ** 2 }} {{ -2 ** 2 }}")).toBe("7 9 64 4");
    expect(
      render("{{ 'a' ~ (1 + 2) }} {{ not 1 == 2 }} {{ 1 if false else 2 }} {{ 7 % 3 }} {{ -7 // 2 }}"),
    ).toBe("a3 true 2 1 -4");
  });
  it("prints none as null and undefined attributes as nothing", () => {
    expect(render("{{ none }}|{{ m.missing }}|{{ true }}", { m: {} })).toBe("null||true");
  });
  it("short-circuits and/or and returns operands", () => {
    expect(render("{{ '' or 'x' }} {{ 0 and boom }} {{ [] or [1] }}")).toBe("x 0 [1]");
  });
  it("supports lists, dicts, indexing and slicing", () => {
    expect(render("{{ [1, 2, 3][-1] }} {{ 'hello'[1:3] }} {{ [1, 2, 3, 4][::2] }} {{ {'a': 1}['a'] }}")).toBe(
      "3 el [1, 3] 1",
    );
  });
  it("evaluates tests, including negated ones", () => {
    expect(render("{{ 3 is odd }} {{ x is not defined }} {{ 4 is divisibleby(2) }} {{ none is none }}")).toBe(
      "true true true true",
    );
  });
  it("compares enum values by name and prints their alias", () => {
    const status = new EnumValue("Status", "ACTIVE", "active");
    const type = new EnumType("Status", new Map([["ACTIVE", status]]));
    expect(
      render("{{ s }} {{ s == 'ACTIVE' }} {{ s == 'active' }} {{ s == Status.ACTIVE }}", {
        s: status,
        Status: type,
      }),
    ).toBe("active true false true");
  });
  it("prints class instances like BAML (aliases, 4-space pretty debug)", () => {
    const person = new ClassInstance(
      "P",
      new Map<string, unknown>([
        ["name", "Ada"],
        ["tags", []],
      ]),
      new Map([["name", "full_name"]]),
    );
    expect(render("{{ p }}|{{ p.name }}", { p: person })).toBe(
      '{\n    "full_name": "Ada",\n    "tags": [],\n}|Ada',
    );
  });
});

describe("numbers and none, printed as BAML 0.226.2 prints them", () => {
  it("keeps floats apart from ints", () => {
    expect(
      render(
        "{{ 1.0 }} {{ 4 / 2 }} {{ 7 / 2 }} {{ 1 + 2 }} {{ 1.5 * 2 }} {{ 3.7 | round }} {{ 10 | float }} {{ -(2.0) }}",
      ),
    ).toBe("1.0 2.0 3.5 3 3.0 4.0 10.0 -2.0");
  });
  it("sums to an int when every item is integral", () => {
    expect(render("{{ [1.0, 2] | sum }} {{ [1.5, 2.5] | sum }}")).toBe("3 4.0");
  });
  it("prints none as null at the top level and as none inside plain lists, maps and strings", () => {
    expect(render("{{ none }} {{ [none] }} {{ {'a': none} }} {{ 'x' ~ none }} {{ none | string }}")).toBe(
      'null [none] {"a": none} xnone none',
    );
  });
  it("tojson keeps the .0 of floats and prints BAML enum values as {}", () => {
    const status = new EnumValue("Status", "ACTIVE", undefined);
    expect(render("{{ [2.0, s] | tojson }}", { s: status })).toBe("[2.0,{}]");
  });
});

describe("statements", () => {
  it("loops with loop variables, filters and else", () => {
    expect(
      render(
        "{% for x in xs if x > 1 %}{{ loop.index }}:{{ x }}{% if not loop.last %},{% endif %}{% endfor %}",
        { xs: [1, 2, 3] },
      ),
    ).toBe("1:2,2:3");
    expect(render("{% for x in [] %}x{% else %}empty{% endfor %}")).toBe("empty");
    expect(render("{% for k, v in m | items %}{{ k }}={{ v }};{% endfor %}", { m: { a: 1, b: 2 } })).toBe(
      "a=1;b=2;",
    );
  });
  it("supports break, continue and loop.cycle", () => {
    expect(
      render(
        "{% for x in range(10) %}{% if x == 3 %}{% break %}{% endif %}{{ loop.cycle('a', 'b') }}{% endfor %}",
      ),
    ).toBe("aba");
    expect(
      render("{% for x in range(4) %}{% if x is odd %}{% continue %}{% endif %}{{ x }}{% endfor %}"),
    ).toBe("02");
  });
  it("scopes set inside loops to the loop, but namespaces carry out", () => {
    expect(render("{% set n = 0 %}{% for x in [1, 2] %}{% set n = n + x %}{% endfor %}{{ n }}")).toBe("0");
    const counted =
      "{% set ns = namespace(n=0) %}{% for x in [1, 2] %}{% set ns.n = ns.n + x %}{% endfor %}{{ ns.n }}";
    expect(render(counted)).toBe("3");
  });
  it("applies filter blocks", () => {
    expect(render("{% filter upper | trim %}  hi  {% endfilter %}")).toBe("HI");
  });
});

describe("filters and methods", () => {
  it("formats JSON the way minijinja's tojson does", () => {
    expect(render("{{ {'a': '<b>'} | tojson }}")).toBe('{"a":"\\u003cb\\u003e"}');
  });
  it("has the common string filters and Python methods", () => {
    expect(
      render(
        "{{ 'a b' | title }} {{ ' x ' | trim }} {{ 'a,b' | split(',') | join('+') }} {{ 'abc'.upper() }}",
      ),
    ).toBe("A B x a+b ABC");
    expect(
      render("{{ '{} {name}'.format(1, name='x') }} {{ 'Hello'.startswith('He') }} {{ 'a-b'.split('-') }}"),
    ).toBe('1 x true ["a", "b"]');
  });
  it("regex_match matches anywhere unless anchored", () => {
    expect(render("{{ 'x-12' | regex_match('\\\\d+') }} {{ 'x-12' | regex_match('^\\\\d+$') }}")).toBe(
      "true false",
    );
  });
  it("sums, indents and defaults", () => {
    expect(render("{{ [1, 2, 3] | sum }} {{ none | default('d') }} {{ u | default('d') }}", {})).toBe(
      "6 null d",
    );
    expect(render("{{ 'a\nb' | indent(2) }}")).toBe("a\n  b");
  });
});

describe("errors carry the offset of what failed", () => {
  it("unknown variables", () => {
    const error = failure("Hello {{ name }}");
    expect(error.code).toBe("unknown_variable");
    expect(error.offset).toBe(9);
  });
  it("unknown filters and tests", () => {
    expect(failure("{{ 1 | nope }}").code).toBe("unknown_filter");
    expect(failure("{{ 1 is nope }}").code).toBe("unknown_filter");
  });
  it("unknown string escapes, as in Minijinja", () => {
    const error = failure("{{ 'a\\d' }}");
    expect(error.code).toBe("syntax_error");
    expect(error.message).toContain("Bad string escape");
  });
  it("syntax errors point at the unclosed block", () => {
    const error = failure("a\n{% for x in y %}\nb");
    expect(error.code).toBe("syntax_error");
    expect(error.offset).toBe(2);
  });
  it("type errors", () => {
    expect(failure("{{ 1 + 'a' }}").message).toContain("Cannot apply `+` to int and string");
    expect(render("{% for x in none %}x{% endfor %}")).toBe("");
    expect(failure("{{ x.y }}", { x: null }).message).toContain("Cannot read `y` of none");
  });
});

describe("limits and lookups a template cannot escape", () => {
  const values = { s: "abc", l: [1], m: { a: 1 } };

  it.each([
    ["{{ s.constructor }}", ""],
    ["{{ l.constructor }}", ""],
    ["{{ m.__proto__ }}", ""],
    ["{{ m.toString }}", ""],
  ])("resolves %s from the method tables only, never Object.prototype", (template, rendered) => {
    expect(render(template, values)).toBe(rendered);
  });

  it.each([
    ["{{ s.constructor('x') }}", "not callable"],
    ["{{ m.toString() }}", "not callable"],
    ["{{ m.hasOwnProperty('a') }}", "not callable"],
    ["{{ s | constructor }}", "Unknown filter `constructor`"],
    ["{{ s is constructor }}", "Unknown test `constructor`"],
    ["{{ l | map('toString') }}", "unknown filter"],
    ["{{ l | select('valueOf') }}", "valueOf"],
  ])("refuses %s", (template, message) => {
    expect(failure(template, values).message).toContain(message);
  });

  it("repeats strings up to the limit and refuses longer ones, saying how long", () => {
    expect(render("{{ 'ab' * 3 }}")).toBe("ababab");
    const error = failure("{{ 'x' * 1000000000 }}");
    expect(error.code).toBe("limit_exceeded");
    expect(error.message).toContain("would be 1000000000 characters");
    expect(error.offset).toBe(7);
  });

  it("bounds what a template prints and builds, loops and joins included", () => {
    const long = "x".repeat(1000);
    const printed = failure("{% for i in range(20000) %}{{ long }}{% endfor %}", { long });
    expect(printed.code).toBe("limit_exceeded");
    expect(printed.message).toContain("The rendered template");
    const doubled = failure(
      "{% set ns = namespace(s='x') %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}",
    );
    expect(doubled.code).toBe("limit_exceeded");
    expect(doubled.message).toContain("`~`");
    expect(render("{% for i in range(3) %}{{ long }}{% endfor %}", { long }).length).toBe(3000);
  });

  it("runs regex_match in linear time: a pattern that backtracks for minutes in JavaScript answers at once", () => {
    const text = `${"a".repeat(31)}!`;
    expect(render("{{ t | regex_match('^(a+)+$') }}", { t: text })).toBe("false");
    expect(render("{{ t | regex_match('^(a+)+!$') }}", { t: text })).toBe("true");
  });

  it("refuses a regex_match pattern with a backreference or lookaround, naming it", () => {
    const error = failure("{{ 'aa' | regex_match('(a)\\\\1') }}");
    expect(error.code).toBe("invalid_pattern");
    expect(error.message).toContain('regex_match("(a)\\\\1")');
    expect(error.message).toContain("Backreferences");
    expect(failure("{{ 'a' | regex_match('a(?=b)') }}").message).toContain("Lookaround");
  });
});
