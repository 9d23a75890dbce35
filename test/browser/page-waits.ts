/**
 * Helpers shared by the React browser tests (test/react-hooks.test.ts, test/react-next.test.ts): scripted
 * answers in pieces, polling until the page shows something, and reading an element's text.
 */
import type { Page } from "playwright-core";

/** `text` in `count` pieces of nearly equal length (the mock's chunks). */
export function splitIntoChunks(text: string, count: number): string[] {
  const size = Math.ceil(text.length / count);
  return Array.from({ length: Math.ceil(text.length / size) }, (_, index) =>
    text.slice(index * size, (index + 1) * size),
  );
}

/**
 * Polls `probe` until it returns a value. The limit is only a backstop for a hung page (a minute); no
 * assertion depends on how long anything took. `context` adds what helps to debug a timeout.
 */
export async function waitUntil<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  what: string,
  context: () => string = () => "",
): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${context()}`);
    await new Promise((done) => setTimeout(done, 25));
  }
}

/** An element's text ("" when it has none). */
export async function textOf(page: Page, selector: string): Promise<string> {
  return (await page.locator(selector).textContent()) ?? "";
}
