/**
 * `sapling eval --html` opened in headless Chromium: the report's charts, per-field table and failing
 * rows render, and a failing row shows its raw answer with the parser's repairs marked. With
 * UPDATE_SCREENSHOTS=1 it writes docs/images/eval-report.png (the picture docs/eval.md shows).
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { captureContext } from "../src/cli/cli-context.js";
import { main } from "../src/cli/main.js";
import { chromiumPath, launchChromium, chromiumRequired as required } from "./browser/launch-chromium.js";

const root = join(import.meta.dirname, "..");
const example = join(root, "examples", "resume");

describe.skipIf(!chromiumPath && !required)("the eval report in Chromium", () => {
  it("shows bars per cell, accuracy per field and failing rows with repairs marked", {
    timeout: 120_000,
  }, async () => {
    const directory = mkdtempSync(join(tmpdir(), "sapling-eval-html-"));
    const rows = readFileSync(join(example, "eval", "rows.jsonl"), "utf8")
      .trimEnd()
      .split("\n")
      .slice(0, 12);
    writeFileSync(join(directory, "rows.jsonl"), `${rows.join("\n")}\n`);
    const context = captureContext({ cwd: directory });
    const code = await main(
      [
        "eval",
        "EvaluateResume",
        "--from",
        join(example, "baml_src"),
        "--data",
        "rows.jsonl",
        "--score",
        join(example, "eval", "score.json"),
        "--client",
        "mock/clean-json,mock/fenced-prose,mock/loose-types,mock/cut-by-max-tokens",
        "--mode",
        "prompt,native",
        "--record",
        "records",
        "--progress",
        "none",
      ],
      context,
    );
    expect(code, context.output().stderr).toBe(0);
    // The profiles answer with the dataset's labels; a label changed afterwards (re-scored by a replay,
    // no model called) makes row 1 wrong in every cell, also where the parser repaired the answer.
    rows[0] = (rows[0] as string).replace('"candidate_name": "Jane Doe"', '"candidate_name": "Jane Q. Doe"');
    writeFileSync(join(directory, "relabelled.jsonl"), `${rows.join("\n")}\n`);
    const replay = captureContext({ cwd: directory });
    const replayArguments = ["--data", "relabelled.jsonl", "--replay", "records", "--html", "report.html"];
    const replayCode = await main(
      [
        "eval",
        "EvaluateResume",
        "--from",
        join(example, "baml_src"),
        "--score",
        join(example, "eval", "score.json"),
        ...replayArguments,
      ],
      replay,
    );
    expect(replayCode, replay.output().stderr).toBe(0);
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(pathToFileURL(join(directory, "report.html")).href);
      expect(await page.locator("h1").textContent()).toBe("sapling eval EvaluateResume: 12 rows × 8 cells");
      expect(await page.locator(".chart").count()).toBe(10);
      if (process.env.UPDATE_SCREENSHOTS === "1")
        await page.screenshot({ path: join(root, "docs", "images", "eval-report.png") });
      // The row-accuracy chart: a bar per cell, 11 of 12 for clean JSON (row 1 relabelled), short when cut.
      const accuracy = page.locator(".chart").first();
      expect(await accuracy.locator(".bar-row").count()).toBe(8);
      const width = async (cell: string) =>
        (await accuracy.locator(".bar-row", { hasText: cell }).locator(".bar").boundingBox())?.width ?? -1;
      const track = (await accuracy.locator(".bar-track").first().boundingBox())?.width ?? 0;
      expect(await width("mock/clean-json · prompt")).toBeCloseTo((track * 11) / 12, 0);
      expect(await width("mock/cut-by-max-tokens · prompt")).toBeLessThan(track / 2);
      // Accuracy per field: a header cell per cell, a line per scored field (reasoning is ignored).
      expect(await page.locator("table tr").count()).toBe(1 + 5);
      // Failing rows: the mislabelled row in every cell, and the cut answers that did not parse.
      const failures = page.locator("details.failure");
      expect(await failures.locator("summary", { hasText: "row resume-01" }).count()).toBe(8);
      expect(
        await failures.locator("summary", { hasText: "mock/cut-by-max-tokens · prompt" }).count(),
      ).toBeGreaterThan(1);
      // The loose-types answer of that row parsed with repairs ("7.5" → 8, "Lean Reject" → LEAN_REJECT), marked.
      const loose = failures.filter({
        has: page.locator("summary", { hasText: "mock/loose-types · prompt row resume-01" }),
      });
      await loose.locator("summary").click();
      expect(await loose.locator("summary").textContent()).toContain("wrong fields: candidate_name (0.0%)");
      expect(await loose.locator("pre.answer").isVisible()).toBe(true);
      expect(await loose.locator("mark.repair").count()).toBeGreaterThan(0);
    } finally {
      await browser.close();
    }
  });
});
