import { type Ir, IrIndex, typeToString } from "../ir/index.js";
import { shellQuote } from "../util/index.js";
import type { JsonSchema } from "./api-schema.js";
import { exampleArguments } from "./example-value.js";
import { describeFunctions } from "./openapi-document.js";

/**
 * `GET /docs`: one self-contained HTML page (inline CSS, no script, no CDN, so it works offline and under a
 * strict CSP) listing every function with its signature, request and response schemas, and curl examples
 * for `/call`, `/stream` and `/parse`. The machine-readable twin is `/openapi.json`.
 */
export function renderDocsPage(ir: Ir, options: { baseUrl: string; secured: boolean }): string {
  const index = new IrIndex(ir);
  const { functions, components } = describeFunctions(ir);
  const auth = options.secured ? ` \\\n  -H 'x-sapling-api-key: YOUR_KEY'` : "";
  const sections = functions.map((described) => {
    const fn = index.getFunction(described.name);
    const signature = `${fn.name}(${fn.params
      .map((param) => `${param.name}: ${typeToString(param.type)}`)
      .join(", ")}) -> ${typeToString(fn.returnType)}`;
    const body = JSON.stringify(exampleArguments(fn, index));
    const curl = (route: string, extra = "") =>
      `curl -X POST ${options.baseUrl}/${route}/${fn.name}${extra}${auth} \\\n  -H 'content-type: application/json' \\\n  -d ${shellQuote(body)}`;
    return `<section id="${escapeHtml(fn.name)}">
<h2>${escapeHtml(fn.name)}</h2>
${described.docs ? `<p>${escapeHtml(described.docs)}</p>` : ""}
<pre class="signature">${escapeHtml(signature)}</pre>
<h3>Call</h3>
<pre>${escapeHtml(curl("call"))}</pre>
<h3>Stream (server-sent events)</h3>
<pre>${escapeHtml(curl("stream", " -N"))}</pre>
<h3>Parse a raw answer (no model call)</h3>
<pre>${escapeHtml(`curl -X POST ${options.baseUrl}/parse/${fn.name}${auth} \\\n  -H 'content-type: text/plain' \\\n  --data-binary @answer.txt`)}</pre>
<details><summary>Request schema</summary><pre>${json(described.request)}</pre></details>
<details open><summary>Response schema</summary><pre>${json(expandReference(described.response, components))}</pre></details>
</section>`;
  });
  const schemaList = Object.entries(components).map(
    ([name, schema]) =>
      `<details id="schema-${escapeHtml(name)}"><summary>${escapeHtml(name)}</summary><pre>${json(schema)}</pre></details>`,
  );
  const navigation = functions
    .map((fn) => `<li><a href="#${escapeHtml(fn.name)}">${escapeHtml(fn.name)}</a></li>`)
    .join("");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sapling functions</title>
<style>
body { font: 15px/1.5 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #1d2330; }
pre { background: #f4f6f8; padding: .75rem; overflow-x: auto; border-radius: 4px; font-size: 13px; }
.signature { background: #e8f1e8; }
section { border-top: 1px solid #d8dde3; margin-top: 2rem; }
summary { cursor: pointer; font-weight: 600; }
</style>
</head>
<body>
<h1>Sapling functions</h1>
<p>${functions.length} function${functions.length === 1 ? "" : "s"}. Machine-readable: <a href="openapi.json">openapi.json</a>.
Errors are JSON <code>{"error": {"status", "code", "message"}}</code>; parse failures (422) carry <code>raw_output</code>.${
    options.secured
      ? " Every request needs the API key (<code>x-sapling-api-key</code> header or HTTP Basic password)."
      : ""
  }</p>
<ul>${navigation}</ul>
${sections.join("\n")}
<section><h2>Schemas</h2>
${schemaList.join("\n")}
</section>
</body>
</html>
`;
}

/** A top-level `$ref` shown with its target, so the answer's shape is visible without scrolling. */
function expandReference(schema: JsonSchema, components: Record<string, JsonSchema>): JsonSchema {
  const reference = schema.$ref;
  if (typeof reference !== "string") return schema;
  const target = components[reference.replace("#/components/schemas/", "")];
  return target ? { ...schema, ...target } : schema;
}

function json(schema: JsonSchema): string {
  return escapeHtml(JSON.stringify(schema, null, 2));
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
