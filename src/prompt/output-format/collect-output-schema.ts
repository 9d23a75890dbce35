import { type Ir, IrIndex, type Type } from "../../ir/index.js";
import {
  recursionInfo,
  type SchemaType,
  schemaTypeKey,
  toSchemaType,
  unionArms,
} from "../../output-schema/index.js";

/** An enum as the model sees it: `@skip` values removed, aliases applied. */
export interface SchemaEnum {
  name: string;
  /** `@@alias`, else the name. */
  renderedName: string;
  values: { name: string; renderedName: string; description?: string }[];
}

/** A class as the model sees it: `@skip` fields removed, field aliases applied. */
export interface SchemaClass {
  name: string;
  description?: string;
  fields: { name: string; renderedName: string; type: SchemaType; description?: string }[];
}

/**
 * Everything `ctx.output_format` needs for one target type (BAML's `OutputFormatContent`): the enums and
 * classes the target reaches, in BAML's discovery order (a depth-first walk over a stack, so the last field
 * is visited first), the recursive classes that must be hoisted, and recursive alias definitions.
 */
export interface OutputSchema {
  target: SchemaType;
  enums: Map<string, SchemaEnum>;
  classes: Map<string, SchemaClass>;
  recursiveClasses: string[];
  recursiveAliases: Map<string, SchemaType>;
}

/** Collects the output schema of `type` from the IR. Throws on references the IR does not declare. */
export function collectOutputSchema(ir: Ir, type: Type): OutputSchema {
  const index = new IrIndex(ir);
  const recursion = recursionInfo(ir);
  const lower = (input: Type): SchemaType => toSchemaType(input, index, recursion.recursiveAliases);
  const target = lower(type);
  const schema: OutputSchema = {
    target,
    enums: new Map(),
    classes: new Map(),
    recursiveClasses: [],
    recursiveAliases: new Map(),
  };
  const checked = new Set<string>();
  const stack: SchemaType[] = [target];
  const pushUnchecked = (next: SchemaType): void => {
    if (!checked.has(schemaTypeKey(next))) stack.push(next);
  };

  for (let current = stack.pop(); current !== undefined; current = stack.pop()) {
    switch (current.kind) {
      case "enum": {
        if (!markChecked(checked, current)) break;
        const declared = index.getEnum(current.name);
        schema.enums.set(current.name, {
          name: declared.name,
          renderedName: declared.alias ?? declared.name,
          values: declared.values
            .filter((value) => !value.skip)
            .map((value) => ({
              name: value.name,
              renderedName: value.alias ?? value.name,
              ...(value.description !== undefined ? { description: value.description } : {}),
            })),
        });
        break;
      }
      case "class": {
        if (!markChecked(checked, current)) break;
        const declared = index.getClass(current.name);
        const fields = declared.fields
          .filter((field) => !field.skip)
          .map((field) => ({
            name: field.name,
            renderedName: field.alias ?? field.name,
            type: lower(field.type),
            ...(field.description !== undefined ? { description: field.description } : {}),
          }));
        for (const field of fields) pushUnchecked(field.type);
        for (const cycle of recursion.classCycles) {
          if (!cycle.includes(current.name)) continue;
          for (const member of cycle) {
            if (!schema.recursiveClasses.includes(member)) schema.recursiveClasses.push(member);
          }
        }
        schema.classes.set(current.name, {
          name: declared.name,
          ...(declared.description !== undefined ? { description: declared.description } : {}),
          fields,
        });
        break;
      }
      case "list":
        pushUnchecked(current.item);
        break;
      case "map":
        if (!markChecked(checked, current)) break;
        pushUnchecked(current.key);
        pushUnchecked(current.value);
        break;
      case "union":
        if (!markChecked(checked, current)) break;
        for (const arm of unionArms(current)) pushUnchecked(arm);
        break;
      case "recursive-alias":
        for (const cycle of recursion.aliasCycles) {
          if (!cycle.includes(current.name)) continue;
          for (const member of cycle) {
            if (schema.recursiveAliases.has(member)) continue;
            const definition = lower(index.getAlias(member).type);
            schema.recursiveAliases.set(member, definition);
            stack.push(definition);
          }
        }
        break;
      case "primitive":
      case "literal":
      case "media":
        break;
    }
  }
  return schema;
}

function markChecked(checked: Set<string>, type: SchemaType): boolean {
  const key = schemaTypeKey(type);
  if (checked.has(key)) return false;
  checked.add(key);
  return true;
}
