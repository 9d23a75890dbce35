import type { ProviderRequest } from "../llm/index.js";
import { redactRequest } from "../llm/index.js";
import { shellQuote } from "../util/index.js";

/**
 * A provider request as a cURL command to paste in a terminal, with every credential masked by the
 * package's one redaction rule (`redactRequest`: secret headers by name, secret query parameters).
 */
export function formatCurl(request: ProviderRequest): string {
  const shown = redactRequest(request);
  const lines = [`curl -X ${shown.method} ${shellQuote(shown.url)}`];
  for (const [name, value] of Object.entries(shown.headers))
    lines.push(`  -H ${shellQuote(`${name}: ${value}`)}`);
  lines.push(`  -d ${shellQuote(JSON.stringify(shown.body, null, 2))}`);
  return lines.join(" \\\n");
}
