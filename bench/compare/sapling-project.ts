/**
 * The corpus's .baml files compiled by Sapling's own front end (src/language), the same files the BAML
 * runtime loads: the IR and, per benchmark function, its return type.
 */
import type { Ir, Type } from "../../src/ir/index.js";
import { compile, renderDiagnostics } from "../../src/language/index.js";
import { readBamlSources } from "./baml-parser.js";

export interface SaplingProject {
  ir: Ir;
  /** The return type of a corpus function; an unknown name is a bench bug. */
  returnTypeOf(functionName: string): Type;
}

export function loadSaplingProject(): SaplingProject {
  const sources = readBamlSources();
  const { ir, diagnostics } = compile(sources);
  if (ir === undefined)
    throw new Error(`the corpus .baml files do not compile:\n${renderDiagnostics(diagnostics, sources)}`);
  const returnTypes = new Map(ir.functions.map((declaration) => [declaration.name, declaration.returnType]));
  return {
    ir,
    returnTypeOf: (functionName) => {
      const type = returnTypes.get(functionName);
      if (type === undefined) throw new Error(`no function ${functionName} in bench/corpus/baml_src`);
      return type;
    },
  };
}
