import type { Client, Ir } from "../ir/index.js";
import type { ProviderExtension } from "../llm/index.js";
import {
  type CallOptions,
  type ClientRegistry,
  Collector,
  createConsoleLogger,
  SaplingRuntime,
} from "../runtime/index.js";
import {
  type PortableCallOptions,
  type SyncCallReply,
  type SyncCallRequest,
  toPortableError,
} from "./sync-messages.js";

/** The provider adapters of other entry points a project may need, loaded by name in the worker. */
const extensionLoaders: Record<string, () => Promise<ProviderExtension>> = {
  "aws-bedrock": async () => (await import("../aws-bedrock/index.js")).awsBedrock,
  "vertex-ai": async () => (await import("../vertex-ai/index.js")).vertexAi,
};

/** The part of Node's `MessagePort` the worker uses (declared here: the entry's types need no @types/node). */
export interface SyncPort {
  on(event: "message", listener: (message: { flag: Int32Array; request: SyncCallRequest }) => void): void;
  postMessage(value: SyncCallReply): void;
}

/** What the main thread gives the worker when it starts it. */
export interface SyncWorkerData {
  /** The port replies go back on; the main thread reads it synchronously. */
  port: SyncPort;
  ir: Ir;
  /** Providers of other entry points (`aws-bedrock`, `vertex-ai`) the project's clients use. */
  providers: string[];
  json: boolean;
}

/**
 * The worker side of the sync client: a runtime over the same IR and providers, which runs each request
 * as the async client would, posts the reply, then wakes the main thread waiting on the request's flag.
 */
export async function serveSyncCalls(data: SyncWorkerData): Promise<void> {
  const providers = await Promise.all(
    data.providers.map((name) => {
      const load = extensionLoaders[name];
      if (!load) throw new Error(`the sync client has no provider adapter named "${name}"`);
      return load();
    }),
  );
  const runtime = SaplingRuntime.fromIr(data.ir, {
    providers,
    logger: createConsoleLogger({ json: data.json }),
  });
  data.port.on("message", async (message: { flag: Int32Array; request: SyncCallRequest }) => {
    const reply = await perform(runtime, message.request);
    try {
      data.port.postMessage(reply);
    } catch (error) {
      // A value that cannot be cloned (it should not happen: values are parsed JSON): say so, not hang.
      data.port.postMessage({ ok: false, error: toPortableError(error), logs: [] } satisfies SyncCallReply);
    }
    Atomics.store(message.flag, 0, 1);
    Atomics.notify(message.flag, 0);
  });
}

async function perform(runtime: SaplingRuntime, request: SyncCallRequest): Promise<SyncCallReply> {
  const collector = request.options.collect ? new Collector("sync") : undefined;
  runtime.setLogLevel(request.options.logLevel);
  try {
    const options = callOptions(request.options, collector);
    const { functionName, args } = request;
    const value =
      request.method === "call"
        ? await runtime.call(functionName, args, options)
        : await runtime.buildRequest(
            functionName,
            args,
            { stream: request.method === "streamRequest" },
            options,
          );
    return { ok: true, value, logs: [...(collector?.logs ?? [])] };
  } catch (error) {
    return { ok: false, error: toPortableError(error), logs: [...(collector?.logs ?? [])] };
  }
}

/** The options again: the schema as a TypeBuilder would make it, the registry's clients, a collector. */
function callOptions(portable: PortableCallOptions, collector: Collector | undefined): CallOptions {
  const options: CallOptions = { ...portable.plain, env: portable.env };
  const schema = portable.schema;
  if (schema !== undefined) options.tb = { applyTo: () => schema };
  if (portable.registry !== undefined) {
    const clients = new Map<string, Client>(portable.registry.clients.map((client) => [client.name, client]));
    // The runtime reads a registry through `primary` and `getClient` only.
    options.clientRegistry = {
      primary: portable.registry.primary,
      getClient: (name: string) => clients.get(name),
    } as unknown as ClientRegistry;
  }
  if (collector !== undefined) options.collector = collector;
  return options;
}
