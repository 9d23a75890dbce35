import { describe, expect, it } from "vitest";
import { jinjaNames } from "./jinja-names.js";

function reads(template: string): string[] {
  return jinjaNames(template).reads.map((read) => read.name);
}

describe("jinjaNames", () => {
  it("reads root names, not attributes, filters, tests or keyword arguments", () => {
    expect(reads('{{ user.name|upper }} {{ ctx.output_format(prefix=null, or_splitter=" | ") }}')).toEqual([
      "user",
      "ctx",
    ]);
    expect(reads("{% if note is none or note is not defined %}{{ note }}{% endif %}")).toEqual([
      "note",
      "note",
      "note",
    ]);
    expect(reads("{{ a == b }} {{ f(x, key=y) }}")).toEqual(["a", "b", "f", "x", "y"]);
  });

  it("collects names bound by set, for, macro and with, including whitespace-controlled tags", () => {
    const names = jinjaNames(
      "{%- set ns = namespace(total=0) -%}{% for key, value in items %}{{ key }}{% endfor %}{% macro m(a, b) %}{{ a }}{% endmacro %}",
    );
    expect([...names.bound].sort()).toEqual(["a", "b", "key", "m", "ns", "value"]);
    expect(names.reads.map((read) => read.name)).toEqual(["namespace", "items", "key", "a"]);
  });

  it("skips comments, strings and raw blocks, and records offsets", () => {
    const template = '{# {{ hidden }} #}{{ "text {{ not }}" }}{% raw %}{{ raw }}{% endraw %}{{ shown }}';
    expect(jinjaNames(template).reads).toEqual([{ name: "shown", offset: template.indexOf("shown") }]);
  });
});
