import { compile, parseTypeExpression } from "../src/language/index.js";
import { createStreamParser, parsePartial } from "../src/sap/index.js";
const ir = compile({ "s.baml": "class Plan { plan string[] }" }).ir!;
const type = parseTypeExpression("Plan", ir).type!;
for (const text of ["Plan:\n- Step 1: draft it.\n- Step 2: rev", "Plan:\n- draft it.\n- rev", "Plan:\n- Step 1: draft it.\n- Step 2: rev\n"]) {
  const p = createStreamParser(type, ir);
  const r = p.push(text);
  console.log(JSON.stringify(text), JSON.stringify(r.value), JSON.stringify(parsePartial(text, type, ir).value));
}
