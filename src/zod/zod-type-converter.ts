import { namedRoot, type TypeBuilderConverter, TypeCollector } from "../typed-schema/index.js";
import { convertZod } from "./convert-zod.js";

/**
 * The converter `TypeBuilder.addZod` needs: `new TypeBuilder({ convertZod: zodTypeConverter })`. The root
 * object or enum takes the name given to `addZod` (an alias of that name points at any other root type).
 */
export const zodTypeConverter: TypeBuilderConverter = (schema, name, isTaken) => {
  const collector = new TypeCollector(isTaken);
  const { root } = convertZod(schema, name, collector);
  return namedRoot(collector, root.type, name);
};
