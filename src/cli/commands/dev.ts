import type { Command } from "../cli-context.js";
import { dotenvUsage } from "../dotenv.js";
import { mediaUrlUsage } from "../media-url-flags.js";
import { runDevServer } from "./dev-server.js";

const usage = `Usage: sapling dev [--from DIR] [--port N] [--mock] [--allow-media-host HOST]... [--media-max-bytes N]
                   [--dotenv | --dotenv-path FILE]

Opens a playground for the project in the browser, at http://127.0.0.1:2024: functions and their tests
(arguments editable as JSON), the prompt as it will be sent (roles, ctx.output_format marked, token counts,
the request as cURL with keys masked), runs that stream the raw text beside the typed partial, every
attempt of a retry or fallback chain, a parse explorer that shows each repair on the raw answer, and the
test blocks with their checks.

It is a superset of \`sapling serve\` (the same routes: /call, /stream, /parse, /openapi.json, /docs). It
watches DIR, regenerates baml_client/ on every save as \`generate --watch\` does, and updates the page; a
file that breaks shows its diagnostics in the page while the last good state stays usable.

Only the page itself is answered: requests for another Host (DNS rebinding) or from another Origin are
refused. A run or a test against a real model asks for confirmation first; POST /call and /stream need
the header x-sapling-dev-confirm: true. Media files ({"file": …}) are read only inside the project folder.

Options:
  --from DIR            the baml_src folder (default ./baml_src)
  --port N              the port on 127.0.0.1 (default 2024; 0 picks a free one)
  --mock                runs and tests answer from the built-in mock LLM server by default (no key, no
                        network); the page has a switch, edits what the mock answers, and can make the
                        first attempt fail
${mediaUrlUsage(22)}
${dotenvUsage(22)}

Token counts need the optional package js-tiktoken (npm install --save-dev js-tiktoken).
`;

/** `sapling dev`: the playground page (loaded from the command table only when it runs). */
export const devCommand: Command = { usage, run: runDevServer };
