import { loadAddressChecks } from "../../llm/index.js";
import { SaplingRuntime } from "../../runtime/index.js";
import { createSaplingHandler, formatAccessEntry } from "../../server/index.js";
import { type CliContext, CliError, type Command, UsageError } from "../cli-context.js";
import { cliLogger } from "../cli-logger.js";
import { dotenvFlags, dotenvUsage, environmentFor } from "../dotenv.js";
import { loadCompiledProject, projectDirectory } from "../load-project.js";
import { mediaUrlFlags, mediaUrlPolicyFor, mediaUrlUsage } from "../media-url-flags.js";
import {
  booleanFlag,
  optionalWholeNumberFlag,
  parseFlags,
  portFlag,
  stringFlag,
  wholeNumberFlag,
} from "../parse-flags.js";
import { cliRuntimeExtensions } from "../provider-extensions.js";
import { textFileReader } from "../text-file-reader.js";
import { serveOverNodeHttp } from "./serve-over-node-http.js";

const usage = `Usage: sapling serve [--from DIR] [--port N] [--host HOST] [--max-body-bytes N] [--timeout-ms N] [--quiet]
                     [--max-concurrent-requests N] [--allow-request-clients] [--cors-origin ORIGIN]...
                     [--allow-media-host HOST]... [--media-max-bytes N] [--dotenv | --dotenv-path FILE]

Serves the project's functions over HTTP until interrupted (Ctrl-C):

  POST /call/{Function}     JSON arguments → the parsed value as JSON
  POST /stream/{Function}   JSON arguments → server-sent events: partial values, then final (or error)
  POST /parse/{Function}    a model's raw answer (text/plain or {"text": …}) → the value, no model call
  GET  /openapi.json        OpenAPI 3.1, generated from the project
  GET  /docs                every function with its schemas and curl examples
  GET  /_debug/ping         "pong"
  GET  /_debug/status       whether an API key is enforced and this request's passes (BAML's shape)

/call and /stream bodies may carry BAML's "__baml_options__" (a per-request client_registry and env) when
the server requires an API key, or with --allow-request-clients; otherwise they are refused with 403.

Errors are JSON {"error": {"status", "code", "message"}}: 400 bad body or arguments, 401 missing API key,
404 unknown function, 413 body (or the prompt it makes) too large, 422 unparseable answer (with
raw_output), 502 provider failure, 503 too many requests at once (with retry-after), 504 provider timeout.

Bodies are BAML's. Every /call answer also carries x-sapling-finish-reason, x-sapling-truncated,
x-sapling-incomplete (the paths a cut answer left unfinished) and x-sapling-repairs (/stream's final
event carries the same lines before its data line); a request with
Accept: application/vnd.sapling+json gets the Sapling envelope {value, finish_reason, truncated,
incomplete_fields, repairs, usage, client} instead of the bare value (on /stream, in the final event).

Options:
  --from DIR            the baml_src folder (default ./baml_src)
  --port N              the port (default 2024; 0 picks a free one)
  --host HOST           the interface to listen on (default 127.0.0.1; 0.0.0.0 for every interface)
  --max-body-bytes N    refuse larger request bodies with 413 (default 104857600, BAML's 100 MiB)
  --timeout-ms N        answer 504 when a model call takes longer (default: the clients' own timeouts)
  --max-concurrent-requests N
                        answer 503 with retry-after to /call, /stream and /parse requests beyond N at once
                        (a stream counts until it ends; default 512)
  --quiet               no access log (one line per request: status, time, error code and reason,
                        aborted streams, truncated answers)
  --cors-origin ORIGIN  let browser code from ORIGIN (e.g. http://localhost:5173, or *) call the server;
                        repeatable. Off by default
  --allow-request-clients
                        accept __baml_options__ without an API key. A request's client can then send the
                        server's provider keys (OPENAI_API_KEY, …) to any URL: only for trusted callers
${mediaUrlUsage(22)}
${dotenvUsage(22)}

Environment:
  SAPLING_API_KEY (or BAML_PASSWORD)  when set, requests must carry it in the x-sapling-api-key or
                                      x-baml-api-key header, or as the HTTP Basic password. Without
                                      it anyone who reaches the port can call the models with the
                                      server's keys: set it before listening beyond 127.0.0.1
  Client options read env.NAME from the environment at call time.
`;

/** `sapling serve`: the project's functions over HTTP (the server room's handler on node:http). */
export const serveCommand: Command = {
  usage,
  run: async (argv: string[], context: CliContext): Promise<number> => {
    const flags = parseFlags(
      argv,
      {
        from: { type: "string" },
        port: { type: "string" },
        host: { type: "string" },
        "max-body-bytes": { type: "string" },
        "timeout-ms": { type: "string" },
        "max-concurrent-requests": { type: "string" },
        quiet: { type: "boolean" },
        "allow-request-clients": { type: "boolean" },
        "cors-origin": { type: "string", multiple: true },
        ...mediaUrlFlags,
        ...dotenvFlags,
      },
      0,
    );
    const port = portFlag(flags, "port", 2024);
    const maxBodyBytes = wholeNumberFlag(flags, "max-body-bytes", 100 * 1024 * 1024);
    const maxConcurrentRequests = optionalWholeNumberFlag(flags, "max-concurrent-requests", 1);
    const timeout = stringFlag(flags, "timeout-ms");
    const host = stringFlag(flags, "host") ?? "127.0.0.1";
    const corsOrigins = corsOriginFlags(flags.values["cors-origin"]);
    const mediaUrls = await mediaUrlPolicyFor(flags);
    const { ir } = await loadCompiledProject(projectDirectory(context, stringFlag(flags, "from")), context);
    const env = await environmentFor(flags, context);
    const apiKey = env.SAPLING_API_KEY || env.BAML_PASSWORD || undefined;
    const quiet = booleanFlag(flags, "quiet");
    const handler = createSaplingHandler({
      runtime: SaplingRuntime.fromIr(ir, {
        env,
        readTextFile: textFileReader(context.cwd),
        ...cliRuntimeExtensions,
        mediaUrls,
        ...cliLogger(env, context),
      }),
      ir,
      maxBodyBytes,
      ...(maxConcurrentRequests !== undefined ? { maxConcurrentRequests } : {}),
      corsOrigins,
      ...(quiet ? {} : { onAccess: (entry) => context.stdout(`${formatAccessEntry(entry)}\n`) }),
      ...(apiKey ? { apiKey } : {}),
      ...(booleanFlag(flags, "allow-request-clients") ? { allowRequestClients: true } : {}),
      ...(timeout !== undefined ? { requestTimeoutMs: wholeNumberFlag(flags, "timeout-ms", 0) } : {}),
    });
    const server = await serveOverNodeHttp(handler, { port, host }).catch((error: unknown) => {
      const code = (error as { code?: unknown }).code;
      if (code === "EADDRINUSE")
        throw new CliError(
          `port ${port} on ${host} is in use; pick another with --port N (0 for any free one).`,
        );
      throw new CliError(
        `cannot listen on ${host}:${port}: ${error instanceof Error ? error.message : error}`,
      );
    });
    if (!apiKey && !(await isLoopbackHost(host))) context.stderr(openServerWarning(host, server.url));
    const count = ir.functions.length;
    context.stdout(
      `Serving ${count} function${count === 1 ? "" : "s"} at ${server.url} (docs: ${server.url}/docs)` +
        `${apiKey ? "; API key required" : ""}` +
        `${corsOrigins.length > 0 ? `; CORS for ${corsOrigins.join(", ")}` : ""}. Press Ctrl-C to stop.\n`,
    );
    await context.interrupted;
    await server.close();
    context.stdout("Stopped.\n");
    return 0;
  },
};

/** Whether `host` (the `--host` value) only takes connections from this machine. */
async function isLoopbackHost(host: string): Promise<boolean> {
  if (host.toLowerCase() === "localhost") return true;
  return (await loadAddressChecks()).blockedAddressKind(host) === "loopback";
}

/** The loud start-up warning of a server anyone on the network can call with the operator's keys. */
function openServerWarning(host: string, url: string): string {
  const rule = "!".repeat(78);
  return (
    `${rule}\n` +
    `WARNING: sapling serve listens on ${host} (${url}) with no API key.\n` +
    "Anyone who can reach this port can call your functions with this server's model keys and spend\n" +
    "them. Set SAPLING_API_KEY (callers then send it in the x-sapling-api-key header), or listen on\n" +
    "127.0.0.1 behind a proxy that authenticates.\n" +
    `${rule}\n`
  );
}

/** `--cors-origin` values: `*`, or origins as a browser sends them (`scheme://host[:port]`, no path). */
function corsOriginFlags(values: unknown): string[] {
  const origins = Array.isArray(values)
    ? values.filter((value): value is string => typeof value === "string")
    : [];
  for (const origin of origins) {
    if (origin === "*") continue;
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {}
    if (!parsed || parsed.origin !== origin) {
      const hint = parsed && parsed.origin !== "null" ? ` (did you mean ${parsed.origin}?)` : "";
      throw new UsageError(
        `--cors-origin takes an origin like http://localhost:5173 (scheme, host, port; no path), got "${origin}"${hint}`,
      );
    }
  }
  return origins;
}
