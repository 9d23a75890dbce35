import { type Ir, IrIndex, type LlmFunction } from "../ir/index.js";
import { docsUrl } from "../util/index.js";
import { ApiSchemaBuilder, type JsonSchema } from "./api-schema.js";
import { BAML_OPTIONS_KEY } from "./decode-baml-options.js";
import {
  SAPLING_DELTA_MEDIA_TYPE,
  SAPLING_MEDIA_TYPE,
  saplingEnvelopeSchema,
  saplingHeadersSchema,
} from "./sapling-response.js";

/** What `/docs` shows per function, and what the OpenAPI document is built from. */
export interface FunctionSchemas {
  name: string;
  docs?: string;
  /** The JSON body of `/call` and `/stream`: one property per parameter. */
  request: JsonSchema;
  /** The parsed value `/call` answers. */
  response: JsonSchema;
}

/** The request and response schemas of every function, plus the components they reference. */
export function describeFunctions(ir: Ir): {
  functions: FunctionSchemas[];
  components: Record<string, JsonSchema>;
} {
  const builder = new ApiSchemaBuilder(new IrIndex(ir));
  const functions = [...ir.functions]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((fn) => ({
      name: fn.name,
      ...(fn.docs ? { docs: fn.docs } : {}),
      request: requestSchema(fn, builder),
      response: builder.schema(fn.returnType, "output"),
    }));
  return { functions, components: builder.components() };
}

function requestSchema(fn: LlmFunction, builder: ApiSchemaBuilder): JsonSchema {
  return {
    type: "object",
    properties: Object.fromEntries(
      fn.params.map((param) => [param.name, builder.schema(param.type, "input")]),
    ),
    required: fn.params.filter((param) => param.type.kind !== "optional").map((param) => param.name),
    additionalProperties: false,
  };
}

const ERROR_RESPONSES: Record<string, string> = {
  "400": "The body is not a JSON object, or an argument does not match its parameter type.",
  "401": "An API key is configured and the request did not carry it.",
  "403": "The body carries __baml_options__ and the server accepts them only from authenticated callers.",
  "413": "The request body is larger than the server accepts.",
  "422": "The model answered, but its text does not hold a value of the return type (raw_output carries it).",
  "502": "The model provider failed (HTTP error, connection failure, every client of a fallback failed).",
  "504": "The model provider did not answer in time.",
};

/**
 * An OpenAPI 3.1 document generated from the IR: `POST /call/{Fn}` and `POST /parse/{Fn}` per function with
 * typed request and response bodies, `POST /stream/{Fn}` as server-sent events, one error schema.
 */
export function createOpenApiDocument(ir: Ir, info: { title?: string; version?: string } = {}): JsonSchema {
  const { functions, components } = describeFunctions(ir);
  const errors = Object.fromEntries(
    Object.entries(ERROR_RESPONSES).map(([status, description]) => [
      status,
      { description, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
    ]),
  );
  const paths: Record<string, JsonSchema> = {};
  for (const fn of functions) {
    const summary = fn.docs?.split("\n")[0];
    // `/call` and `/stream` also take BAML's per-request options, as `baml-cli serve`'s document says.
    const properties = { ...(fn.request.properties as JsonSchema), [BAML_OPTIONS_KEY]: BAML_OPTIONS_REF };
    const schema = { ...fn.request, properties };
    const requestBody = { required: true, content: { "application/json": { schema } } };
    const ok = (schema: JsonSchema) => ({
      description: "The parsed value.",
      content: { "application/json": { schema } },
    });
    const called = {
      description:
        "The parsed value (BAML's body). The x-sapling-* headers say how the answer ended; with " +
        `\`Accept: ${SAPLING_MEDIA_TYPE}\` the body is the Sapling envelope instead.`,
      headers: saplingHeadersSchema(),
      content: {
        "application/json": { schema: fn.response },
        [SAPLING_MEDIA_TYPE]: { schema: saplingEnvelopeSchema(fn.response) },
      },
    };
    paths[`/call/${fn.name}`] = {
      post: {
        operationId: `call${fn.name}`,
        summary: summary ?? `Run ${fn.name}: prompt the model and parse its answer.`,
        tags: ["call"],
        requestBody,
        responses: { "200": called, ...errors },
      },
    };
    paths[`/stream/${fn.name}`] = {
      post: {
        operationId: `stream${fn.name}`,
        summary: `Stream ${fn.name}: partial values as the answer arrives, then the final value.`,
        tags: ["stream"],
        requestBody,
        responses: {
          "200": {
            description: STREAM_DESCRIPTION,
            content: { "text/event-stream": { schema: { type: "string" } } },
          },
          ...errors,
        },
      },
    };
    paths[`/parse/${fn.name}`] = {
      post: {
        operationId: `parse${fn.name}`,
        summary: `Parse a model's raw answer into ${fn.name}'s return type, without calling a model.`,
        tags: ["parse"],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
            },
            "text/plain": { schema: { type: "string" } },
          },
        },
        responses: { "200": ok(fn.response), "400": errors["400"], "422": errors["422"] },
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: { title: info.title ?? "Sapling functions", version: info.version ?? "0.1.0" },
    paths,
    components: {
      schemas: {
        ...components,
        Error: ERROR_SCHEMA,
        BamlOptions: BAML_OPTIONS_SCHEMA,
        DeltaOperations: DELTA_OPERATIONS_SCHEMA,
      },
      securitySchemes: {
        apiKey: { type: "apiKey", in: "header", name: "x-sapling-api-key" },
        basic: { type: "http", scheme: "basic" },
      },
    },
  };
}

const BAML_OPTIONS_REF: JsonSchema = { $ref: "#/components/schemas/BamlOptions" };

const STREAM_DESCRIPTION =
  `Server-sent events, in one of two formats (${docsUrl("runtime.md", "the-wire-formats")}). Default (BAML's): ` +
  "`partial` events, each with the whole partial value (fields not written yet are null), then one `final` " +
  "(the value, as /call answers it) or one `error` (an Error object with its status). Delta format, when " +
  `Accept names ${SAPLING_DELTA_MEDIA_TYPE}: unnamed events (\`data:\` only) whose data is a ` +
  "DeltaOperations list — only what changed since the previous event, applied to a value that starts " +
  'empty — then one `final` whose data is `{"delta": DeltaOperations}` (from the last partial to the final ' +
  "value), or the same `error` event. When Accept names " +
  `${SAPLING_MEDIA_TYPE}, \`final\` carries the Sapling envelope (value, finish_reason, truncated, ` +
  "incomplete_fields, repairs, usage, client); in the delta format with `delta` in place of `value`. " +
  "Events are built when the connection drains: a slow client gets the latest partial (or all changes " +
  "since its last event, in one), never a backlog. A stream cannot be resumed: events carry no id and " +
  "Last-Event-ID is ignored; reconnecting is a new call, whose first event starts from nothing.";

/** The data of a delta event (partial-delta.ts is the rule; this describes it). */
const DELTA_OPERATIONS_SCHEMA: JsonSchema = {
  type: "array",
  description:
    'Operations applied in order. ["+", path, text]: append text to the string at path. ["+", path, ' +
    '[items]]: append items to the list at path. ["=", path, value]: put value at path ([] is the whole ' +
    'value). "text" (a bare string): append text to the string written last — the path of the latest ' +
    "operation in the stream whose value was a string. A path lists object keys and list indexes.",
  items: {
    oneOf: [
      { type: "string" },
      {
        type: "array",
        prefixItems: [{ enum: ["+", "="] }, { type: "array", items: { type: ["string", "integer"] } }, {}],
        minItems: 3,
        maxItems: 3,
      },
    ],
  },
};

/** BAML's `__baml_options__` (see decode-baml-options.ts), accepted from authenticated callers. */
const BAML_OPTIONS_SCHEMA: JsonSchema = {
  type: "object",
  description:
    "Per-request options (BAML's __baml_options__), accepted when the server requires an API key (and the " +
    "request carries it) or runs with --allow-request-clients; otherwise 403.",
  properties: {
    client_registry: {
      type: "object",
      properties: {
        clients: {
          type: "array",
          items: {
            type: "object",
            properties: {
              name: { type: "string" },
              provider: { type: "string" },
              options: { type: "object" },
              retry_policy: { type: "string" },
            },
            required: ["name", "provider"],
            additionalProperties: false,
          },
        },
        primary: { type: "string" },
      },
      additionalProperties: false,
    },
    env: {
      type: "object",
      description: "Merged over the server's environment for this call; null unsets a variable.",
      additionalProperties: { type: ["string", "null"] },
    },
  },
  additionalProperties: false,
};

const ERROR_SCHEMA: JsonSchema = {
  type: "object",
  properties: {
    error: {
      type: "object",
      properties: {
        status: { type: "integer" },
        code: { type: "string" },
        name: { type: "string" },
        message: { type: "string" },
        raw_output: { type: "string", description: "The model's answer, for parse failures." },
        upstream_status: { type: "integer", description: "The provider's HTTP status, when it sent one." },
        partial_value: {
          description: "FINISH_REASON: what the rejected answer held, parsed as far as it goes.",
        },
        incomplete_fields: {
          type: "array",
          items: { type: "string" },
          description: "FINISH_REASON: the paths of the fields the cut answer did not finish.",
        },
      },
      required: ["status", "code", "message"],
    },
  },
  required: ["error"],
};
