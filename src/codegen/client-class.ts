import type { FunctionSignature } from "./function-signature.js";
import { jsDoc } from "./module-text.js";
import { OPTIONS_PARAMETER, runtimeApi } from "./runtime-api.js";

/**
 * One generated client class: a runtime and default options, and one method per BAML function whose
 * signature and body come from `method`. Every method merges its call's options over the defaults. The
 * fields are `protected`, not `private`: a project without functions leaves them unread, which
 * `noUnusedLocals` reports for private members only.
 */
export function clientClass(options: {
  name: string;
  docs: string;
  signatures: FunctionSignature[];
  /** Extra members (getters, `withOptions`) printed before the function methods. */
  members?: string;
  method: (signature: FunctionSignature) => { head: string; body: string };
}): string {
  const methods = options.signatures
    .map((signature) => {
      const { head, body } = options.method(signature);
      return `\n${jsDoc(signature.docs, "  ")}  ${head} {\n    ${body}\n  }\n`;
    })
    .join("");
  return `${jsDoc(options.docs)}export class ${options.name} {
  protected readonly runtime: ${runtimeApi.runtime};
  protected readonly options: ${runtimeApi.callOptions};

  constructor(runtime: ${runtimeApi.runtime}, options: ${runtimeApi.callOptions} = {}) {
    this.runtime = runtime;
    this.options = options;
  }
${options.members ?? ""}${methods}}
`;
}

/** `(resume: string, __baml_options__?: CallOptions)`. */
export function parameterList(signature: FunctionSignature): string {
  const options = `${OPTIONS_PARAMETER}?: ${runtimeApi.callOptions}`;
  return signature.parameters.text === "" ? `(${options})` : `(${signature.parameters.text}, ${options})`;
}

/** The call's options merged over the client's defaults. */
export const mergedOptions = `{ ...this.options, ...${OPTIONS_PARAMETER} }`;

/**
 * A \`b.request\` or \`b.streamRequest\` class: one method per function returning the HTTP request
 * \`engine.buildRequest\` builds (\`this.runtime\`, a promise; the sync client's engine, the request).
 */
export function requestClass(options: {
  name: string;
  docs: string;
  signatures: FunctionSignature[];
  stream: boolean;
  engine: string;
  asynchronous: boolean;
}): string {
  const result = options.asynchronous ? `Promise<${runtimeApi.httpRequest}>` : runtimeApi.httpRequest;
  return clientClass({
    name: options.name,
    docs: options.docs,
    signatures: options.signatures,
    method: (signature) => ({
      head: `${options.asynchronous ? "async " : ""}${signature.name}${parameterList(signature)}: ${result}`,
      body: `return ${options.engine}.buildRequest(${JSON.stringify(signature.name)}, ${signature.argumentsObject}, { stream: ${options.stream} }, ${mergedOptions});`,
    }),
  });
}
