// Module customization hooks (they run off the main thread): record each loaded module's URL, then load it.
import { appendFileSync } from "node:fs";

const log = process.env.SAPLING_MODULE_LOG;

export async function load(url, context, nextLoad) {
  if (log !== undefined) appendFileSync(log, `${url}\n`);
  return nextLoad(url, context);
}
