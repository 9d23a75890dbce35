import { clientClass, mergedOptions, parameterList } from "./client-class.js";
import { clientImports } from "./client-imports.js";
import type { FunctionSignature } from "./function-signature.js";
import type { GenerationContext } from "./generation-context.js";
import { banner, relativeModule } from "./module-text.js";
import { BATCH_MODULE, BATCH_OPTIONS, BATCH_REPORT, runtimeApi } from "./runtime-api.js";

/**
 * `async_client.ts`: `BamlAsyncClient` with one async method per function (`await b.Fn(args)`), the
 * getters `stream`, `request`, `streamRequest`, `parse`, `parseStream`, `withOptions`, and `BamlStreamClient`
 * (`b.stream.Fn(args)` → a stream of partial values, then the final one). `export const b` is the client
 * every application imports.
 */
export function emitAsyncClient(generation: GenerationContext, signatures: FunctionSignature[]): string {
  const local = (name: string) => relativeModule(name, generation.importExtension);
  const members = `
  /** A client whose calls use \`options\` (merged over this client's), e.g. a collector or a client registry. */
  withOptions(options: ${runtimeApi.callOptions}): BamlAsyncClient {
    return new BamlAsyncClient(this.runtime, { ...this.options, ...options });
  }

  /** \`b.stream.Fn(args)\`: partial values while the answer arrives, then \`getFinalResponse()\`. */
  get stream(): BamlStreamClient {
    return new BamlStreamClient(this.runtime, this.options);
  }

  /**
   * \`b.batch.Fn(rows, options?)\`: the function over many rows (each its arguments by name), with
   * concurrency, rate limits, a checkpoint and one typed result per row (\`sapling-llm/batch\`, loaded on
   * first use).
   */
  get batch(): BamlBatchClient {
    return new BamlBatchClient(this.runtime, this.options);
  }

  /** \`b.request.Fn(args)\`: the HTTP request a call would send, without sending it. */
  get request(): AsyncHttpRequest {
    return new AsyncHttpRequest(this.runtime, this.options);
  }

  /** \`b.streamRequest.Fn(args)\`: the HTTP request a stream would send, without sending it. */
  get streamRequest(): AsyncHttpStreamRequest {
    return new AsyncHttpStreamRequest(this.runtime, this.options);
  }

  /** \`b.parse.Fn(text)\`: a model's complete answer parsed into the function's return type. */
  get parse(): LlmResponseParser {
    return new LlmResponseParser(this.runtime, this.options);
  }

  /** \`b.parseStream.Fn(text)\`: a partial answer parsed into the function's partial type. */
  get parseStream(): LlmStreamParser {
    return new LlmStreamParser(this.runtime, this.options);
  }
`;
  const asyncClient = clientClass({
    name: "BamlAsyncClient",
    docs: "The project's functions as async methods: `await b.Fn(args, options?)` returns the parsed value.",
    signatures,
    members,
    method: (signature) => ({
      head: `async ${signature.name}${parameterList(signature)}: Promise<${signature.finalType.text}>`,
      body: `const value = await this.runtime.call(${JSON.stringify(signature.name)}, ${signature.argumentsObject}, ${mergedOptions});\n    return value as ${signature.finalType.text};`,
    }),
  });
  const streamClient = clientClass({
    name: "BamlStreamClient",
    docs: "`b.stream.Fn(args, options?)`: iterate partial values with `for await`, then `await getFinalResponse()`.",
    signatures,
    method: (signature) => {
      const streamType = `${runtimeApi.stream}<${signature.partialType.text}, ${signature.finalType.text}>`;
      return {
        head: `${signature.name}${parameterList(signature)}: ${streamType}`,
        body: `return this.runtime.stream(${JSON.stringify(signature.name)}, ${signature.argumentsObject}, ${mergedOptions}) as ${streamType};`,
      };
    },
  });
  const batchClient = clientClass({
    name: "BamlBatchClient",
    docs: "`b.batch.Fn(rows, options?)`: one typed result per row, in input order; see `sapling-llm/batch`.",
    signatures,
    method: (signature) => ({
      head: `async ${signature.name}(rows: ReadonlyArray<${signature.argumentsType.text}>, options: ${BATCH_OPTIONS}<${signature.argumentsType.text}> = {}): Promise<${BATCH_REPORT}<${signature.finalType.text}>>`,
      body: `const { batchFunction } = await import("${BATCH_MODULE}");\n    return batchFunction<${signature.finalType.text}, ${signature.argumentsType.text}>(this.runtime, ${JSON.stringify(signature.name)}, rows, { ...options, callOptions: { ...this.options, ...options.callOptions } });`,
    }),
  });
  const imports = clientImports(generation, {
    runtimeTypes: [
      runtimeApi.callOptions,
      runtimeApi.runtime,
      ...(signatures.length > 0 ? [runtimeApi.stream] : []),
    ],
    uses: signatures.flatMap((signature) => [
      signature.parameters.uses,
      signature.finalType.uses,
      signature.partialType.uses,
      signature.argumentsType.uses,
    ]),
    local: [
      ...(signatures.length > 0
        ? [`import type { ${BATCH_OPTIONS}, ${BATCH_REPORT} } from "${BATCH_MODULE}";`]
        : []),
      `import { AsyncHttpRequest, AsyncHttpStreamRequest } from "${local("async_request")}";`,
      `import { runtime } from "${local("globals")}";`,
      `import { LlmResponseParser, LlmStreamParser } from "${local("parser")}";`,
    ],
  });
  return `${banner()}${imports}
/** Options of one call (BAML's \`BamlCallOptions\`). */
export type BamlCallOptions = ${runtimeApi.callOptions};

${asyncClient}
${streamClient}
${batchClient}
/** The project's client: \`import { b } from "./baml_client"\`, then \`await b.Fn(args)\`. */
export const b: BamlAsyncClient = new BamlAsyncClient(runtime);
`;
}
