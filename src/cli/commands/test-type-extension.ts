import type { Ir, TestTypeBuilder } from "../../ir/index.js";
import type { SchemaExtension } from "../../runtime/index.js";

/**
 * A test's `type_builder { … }` as a call's schema extension (what a runtime `TypeBuilder` does in code):
 * new classes, enums and aliases are added; `dynamic class X { … }` adds fields to the `@@dynamic` class X
 * and `dynamic enum E { … }` values to E (a field or value of the same name is replaced).
 */
export function testTypeExtension(builder: TestTypeBuilder): SchemaExtension {
  return {
    applyTo: (ir: Ir): Ir => {
      const classes = ir.classes.map((declared) => {
        const extension = builder.dynamicClasses.find((item) => item.name === declared.name);
        if (!extension) return declared;
        const added = new Set(extension.fields.map((field) => field.name));
        return {
          ...declared,
          fields: [...declared.fields.filter((field) => !added.has(field.name)), ...extension.fields],
        };
      });
      const enums = ir.enums.map((declared) => {
        const extension = builder.dynamicEnums.find((item) => item.name === declared.name);
        if (!extension) return declared;
        const added = new Set(extension.values.map((value) => value.name));
        return {
          ...declared,
          values: [...declared.values.filter((value) => !added.has(value.name)), ...extension.values],
        };
      });
      return {
        ...ir,
        classes: [...classes, ...builder.classes],
        enums: [...enums, ...builder.enums],
        aliases: [...ir.aliases, ...builder.aliases],
      };
    },
  };
}
