/**
 * What a newcomer does, from the packed tarball, outside the repository: `npm pack`, then the bash blocks
 * of README.md's "Install" section, run as written in an empty temporary folder — install, `sapling init`,
 * `sapling generate`, `tsc` under `strict`, and a first typed call against `sapling mock`. It checks the
 * tarball's contents and that the program prints what the README says it prints.
 *
 * No network: the one README line that installs from the registry is replaced by an offline install of
 * the tarball (its one dependency, @cfworker/json-schema, comes from the npm cache `npm ci` filled) and links to this repository's typescript and @types/node. Slow
 * (`npm pack` builds), so `.ci/run` runs it as its own step: `npx tsx test/install/newcomer.ts`.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const repository = resolve(import.meta.dirname, "../..");
const registryInstall = "npm install --save-dev sapling-llm typescript @types/node";

class NewcomerFailure extends Error {}

function fail(message: string): never {
  throw new NewcomerFailure(message);
}

/** The fenced blocks of one language in the README section that starts with `heading`. */
function sectionBlocks(markdown: string, heading: string, language: string): string[] {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start === -1) fail(`README.md has no "${heading}" section`);
  const end = markdown.indexOf("\n## ", start + heading.length + 2);
  const section = markdown.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, "gm"))].map(
    (match) => match[1] ?? "",
  );
}

const work = mkdtempSync(join(tmpdir(), "sapling-newcomer-"));
try {
  process.stderr.write(`newcomer: npm pack (prepack builds dist/) into ${work}\n`);
  const packed = execFileSync("npm", ["pack", "--silent", "--pack-destination", work], {
    cwd: repository,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  })
    .trim()
    .split("\n")
    .at(-1);
  if (!packed?.endsWith(".tgz")) fail(`npm pack printed no tarball name (${packed})`);
  const tarball = join(work, packed);

  const files = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" }).trim().split("\n");
  for (const required of [
    "package/LICENSE",
    "package/README.md",
    "package/package.json",
    "package/dist/cli/bin.js",
    "package/dist/ui/index.html",
  ])
    if (!files.includes(required)) fail(`the tarball lacks ${required}`);
  const maps = files.filter((file) => file.endsWith(".map"));
  if (maps.length > 0) fail(`the tarball ships ${maps.length} source maps, e.g. ${maps[0]}`);
  if (files.some((file) => file.includes(".test."))) fail("the tarball ships test files");

  const readme = readFileSync(join(repository, "README.md"), "utf8");
  const blocks = sectionBlocks(readme, "## Install", "bash");
  const script = blocks.join("\n");
  if (!script.includes(registryInstall)) fail(`the Install section no longer runs "${registryInstall}"`);
  const offline = [
    `npm install --offline --no-audit --no-fund --save-dev "${tarball}"`,
    `mkdir -p node_modules/@types`,
    `ln -s "${join(repository, "node_modules/typescript")}" node_modules/typescript`,
    `ln -s "${join(repository, "node_modules/@types/node")}" node_modules/@types/node`,
    `ln -s ../typescript/bin/tsc node_modules/.bin/tsc`,
    `test ! -e node_modules/js-tiktoken || { echo "js-tiktoken was installed with sapling-llm" >&2; exit 1; }`,
  ].join("\n");
  const expected = [...script.matchAll(/^# prints: (.*)$/gm)].map((match) => match[1] ?? "");
  if (expected.length === 0)
    fail('the Install section says nowhere what the first call prints ("# prints: …")');

  const app = join(work, "newcomer");
  mkdirSync(app);
  // No key and no proxy settings from this machine: the first call must need neither.
  const env: Record<string, string> = {};
  for (const name of ["PATH", "HOME", "TMPDIR", "npm_config_cache"]) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  process.stderr.write(
    `newcomer: running the ${blocks.length} bash blocks of README.md's Install section in ${app}\n`,
  );
  const run = spawnSync("bash", ["-euo", "pipefail", "-c", script.replace(registryInstall, offline)], {
    cwd: app,
    env,
    encoding: "utf8",
  });
  process.stderr.write(run.stderr);
  process.stdout.write(run.stdout);
  if (run.status !== 0) fail(`the Install section's commands exited ${run.status ?? run.signal}`);
  for (const line of expected)
    if (!run.stdout.split("\n").includes(line)) fail(`the first call did not print "${line}"`);
  const project = join(app, "my-app");
  for (const folder of ["baml_src", "baml_client", "dist"])
    if (!existsSync(join(project, folder))) fail(`my-app/${folder} is missing`);

  // Without the mock and without a key, the same program names the key it needs (the "real key" path).
  const keyless = spawnSync("node", ["dist/main.js"], { cwd: project, env, encoding: "utf8" });
  if (keyless.status === 0 || !keyless.stderr.includes("OPENAI_API_KEY is not set"))
    fail(`without a key, node dist/main.js did not ask for OPENAI_API_KEY:\n${keyless.stderr}`);
  process.stderr.write(
    "newcomer: passed (pack, install, init, generate, tsc --strict, a call against sapling mock)\n",
  );
} catch (error) {
  if (!(error instanceof NewcomerFailure)) throw error;
  process.stderr.write(`newcomer: FAILED: ${error.message}\n`);
  process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
