/**
 * Headless Chromium for the browser tests: Debian's package (`.ci/run` installs it; no browser download),
 * launched with the flags a container needs. A machine without it skips those tests; CI never does.
 */
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

/** Where Chromium is installed, if it is. */
export const chromiumPath = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((path) =>
  existsSync(path),
);

/** Whether the browser tests must run (on CI) rather than be skipped. */
export const chromiumRequired = process.env.CI === "true";

export function launchChromium(): Promise<Browser> {
  if (!chromiumPath) throw new Error("Chromium is required on CI (.ci/run installs it)");
  return chromium.launch({
    executablePath: chromiumPath,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
  });
}
