/**
 * `--allow-media-host HOST` and `--media-max-bytes N` of `sapling serve` and `sapling dev`: the media URL
 * policy of a server that takes arguments from others. Without the flag no media URL is used (a caller
 * could otherwise make the server fetch its own network); `data:` URLs and files of the project are not
 * URLs and always work. Host names are resolved here, where Node's DNS is, so that hosts matched by a
 * pattern are refused when they point at a private address.
 */
import { lookup } from "node:dns/promises";
import { defaultMediaLimits, loadAddressChecks, type MediaUrlPolicy } from "../llm/index.js";
import { UsageError } from "./cli-context.js";
import { type FlagSpec, optionalWholeNumberFlag, type ParsedFlags } from "./parse-flags.js";

/** The two flags, for the commands' flag specs. */
export const mediaUrlFlags: FlagSpec = {
  "allow-media-host": { type: "string", multiple: true },
  "media-max-bytes": { type: "string" },
};

/** The usage lines for the two flags, their descriptions starting after `flagWidth` columns. */
export function mediaUrlUsage(flagWidth: number): string {
  const pad = " ".repeat(flagWidth + 2);
  return [
    "  --allow-media-host HOST",
    `${pad}use media arguments given by URL from HOST (repeatable): images.example.com,`,
    `${pad}example.com:8443, *.example.com, or * for any public host. Off by default:`,
    `${pad}every media URL is refused. Hosts matched by * or *. must resolve to public`,
    `${pad}addresses (loopback, private, link-local and metadata addresses are refused,`,
    `${pad}also after a redirect); a host listed by its exact name is trusted as written`,
    `  ${"--media-max-bytes N".padEnd(flagWidth)}largest media download (default ${defaultMediaLimits.maxBytes}, 32 MiB)`,
  ].join("\n");
}

/** The runtime's `mediaUrls` from the flags: the listed hosts (none by default), DNS, the size limit. */
export async function mediaUrlPolicyFor(flags: ParsedFlags): Promise<MediaUrlPolicy> {
  const values = flags.values["allow-media-host"];
  const hosts = (Array.isArray(values) ? values : []).filter(
    (value): value is string => typeof value === "string",
  );
  const { allowedHostProblem } = await loadAddressChecks();
  for (const host of hosts) {
    const problem = allowedHostProblem(host);
    if (problem !== undefined) throw new UsageError(`--allow-media-host: ${problem}`);
  }
  const maxBytes = optionalWholeNumberFlag(flags, "media-max-bytes", 1);
  return {
    allowedHosts: hosts,
    resolveHost: resolveHostAddresses,
    ...(maxBytes === undefined ? {} : { maxBytes }),
  };
}

/** Every address a host name resolves to, as the system resolver (what `fetch` uses) answers. */
export async function resolveHostAddresses(hostname: string): Promise<string[]> {
  const answers = await lookup(hostname.replace(/^\[|\]$/g, ""), { all: true, verbatim: true });
  return answers.map((answer) => answer.address);
}
