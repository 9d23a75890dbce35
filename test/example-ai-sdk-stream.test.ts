/**
 * examples/ai-sdk-stream as a user runs it (tsx, in its folder): `streamText` with Sapling's output against
 * the AI SDK's mock model prints growing typed partials and the validated final value.
 */
import { execFile } from "node:child_process";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";

const repository = resolve(import.meta.dirname, "..");
const tsx = join(repository, "node_modules", ".bin", "tsx");

it("streams typed partials and ends with the validated recipe", async () => {
  const { stdout } = await promisify(execFile)(tsx, ["stream-recipe.ts"], {
    cwd: join(repository, "examples", "ai-sdk-stream"),
  });
  const lines = stdout.split("\n");
  expect(lines).toContain("  difficulty: 'EASY' or 'MEDIUM' or 'HARD',");
  const partials = lines.filter((line) => line.startsWith("partial: "));
  expect(partials.length).toBeGreaterThan(5);
  // The name shows its text so far before it is complete; the last partial has every ingredient.
  expect(partials).toContain("partial: Buttermilk | serves … | ");
  expect(partials.at(-1)).toBe("partial: Buttermilk pancakes | serves 4 | flour, buttermilk, eggs");
  expect(lines).toContain(
    'final: {"name":"Buttermilk pancakes","servings":4,"ingredients":[{"item":"flour","grams":250},' +
      '{"item":"buttermilk","grams":500},{"item":"eggs"}],"difficulty":"EASY","tips":[]}',
  );
  expect(lines).toContain("typed: Buttermilk pancakes serves 4; difficulty EASY; 0 tips");
}, 60_000);
