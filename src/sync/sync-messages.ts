import type { Client, Ir } from "../ir/index.js";
import {
  BamlAbortError,
  BamlAllClientsFailedError,
  BamlClientError,
  BamlClientFinishReasonError,
  BamlClientHttpError,
  BamlClientOptionsError,
  BamlError,
  BamlInvalidArgumentError,
  BamlMediaUrlError,
  BamlMissingEnvVarError,
  BamlTimeoutError,
  BamlValidationError,
  type Environment,
  type FunctionLog,
  type LogLevel,
} from "../runtime/index.js";
import { markError } from "../util/index.js";

/** What the main thread asks the worker: a call, or the request a call or a stream would send. */
export interface SyncCallRequest {
  method: "call" | "request" | "streamRequest";
  functionName: string;
  args: Record<string, unknown>;
  options: PortableCallOptions;
}

/**
 * Call options as data a thread can receive: the TypeBuilder applied (the schema it makes), the
 * ClientRegistry as its clients, collectors as a flag (the worker's log comes back), plus the level.
 */
export interface PortableCallOptions {
  /** Options that are data already (`client`, `tags`, `outputMode`, `parseRecovery`, …). */
  plain: Record<string, unknown>;
  env: Environment;
  schema?: Ir;
  registry?: { primary: string | undefined; clients: Client[] };
  collect: boolean;
  logLevel: LogLevel;
}

/** An error as data: its class (by the marks it carries), message, stack and own fields. */
export interface PortableError {
  marks: string[];
  message: string;
  stack: string | undefined;
  fields: Record<string, unknown>;
}

export type SyncCallReply =
  | { ok: true; value: unknown; logs: FunctionLog[] }
  | { ok: false; error: PortableError; logs: FunctionLog[] }
  /** The worker could not start (its module did not load): nothing ran. */
  | { ok: false; startup: string };

/** The runtime's error classes, most specific first, by the name each marks its errors with. */
const errorClasses = [
  ["BamlMediaUrlError", BamlMediaUrlError],
  ["BamlInvalidArgumentError", BamlInvalidArgumentError],
  ["BamlClientHttpError", BamlClientHttpError],
  ["BamlTimeoutError", BamlTimeoutError],
  ["BamlMissingEnvVarError", BamlMissingEnvVarError],
  ["BamlClientOptionsError", BamlClientOptionsError],
  ["BamlClientFinishReasonError", BamlClientFinishReasonError],
  ["BamlAllClientsFailedError", BamlAllClientsFailedError],
  ["BamlClientError", BamlClientError],
  ["BamlAbortError", BamlAbortError],
  ["BamlValidationError", BamlValidationError],
  ["BamlError", BamlError],
] as const;

/** An error thrown in the worker, as data (own fields that cannot be cloned are left out). */
export function toPortableError(error: unknown): PortableError {
  if (!(error instanceof Error)) {
    return { marks: [], message: String(error), stack: undefined, fields: {} };
  }
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    try {
      structuredClone(value);
      fields[key] = value;
    } catch {
      // A field holding a function or a class with private state: not sent.
    }
  }
  return {
    marks: errorClasses.filter(([, type]) => type.isInstance(error)).map(([name]) => name),
    message: error.message,
    stack: error.stack,
    fields,
  };
}

/**
 * The error again on this thread, of the same class (`instanceof`, `isInstance`, `code` and the fields
 * such as `raw_output` or `status_code`), its stack the worker's.
 */
export function fromPortableError(portable: PortableError): Error {
  const type = errorClasses.find(([name]) => portable.marks.includes(name))?.[1] ?? Error;
  const error = Object.create(type.prototype) as Error;
  for (const mark of portable.marks) markError(error, mark);
  Object.defineProperty(error, "message", { value: portable.message, writable: true, configurable: true });
  Object.assign(error, portable.fields);
  if (portable.stack !== undefined) {
    Object.defineProperty(error, "stack", { value: portable.stack, writable: true, configurable: true });
  }
  return error;
}
