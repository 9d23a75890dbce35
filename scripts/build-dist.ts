/**
 * `npm run build`: the package's `dist/`. Types come from `tsc` (declarations only, one `.d.ts` per module,
 * so editors and `tsc` see the sources' JSDoc); the JavaScript is bundled by esbuild, one file per entry
 * point in package.json (`exports` and `bin`) plus shared chunks under `dist/chunks/`. A fresh process then
 * loads a handful of files instead of a few hundred modules, and a dynamic `import()` (the CLI's command
 * table, js-tiktoken) stays a separate chunk loaded only when it runs. Why: docs/decisions/0012-bundled-dist.md.
 *
 *   npx tsx scripts/build-dist.ts   (what `npm run build` runs)
 */
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { type BuildOptions, build } from "esbuild";

const root = resolve(import.meta.dirname, "..");

/** The source files of the package's entry points: every `exports` and `bin` target, `dist/x.js` → `src/x.ts`. */
export function distEntryPoints(packageJson: unknown): string[] {
  const { exports, bin } = packageJson as {
    exports: Record<string, string | { default?: string }>;
    bin?: Record<string, string>;
  };
  const targets = [
    ...Object.values(exports).map((target) => (typeof target === "string" ? target : target.default)),
    ...Object.values(bin ?? {}),
  ].filter((target): target is string => target?.endsWith(".js") === true);
  return [...new Set(targets)].map((target) => {
    const match = /^\.\/dist\/(.+)\.js$/.exec(target);
    if (!match) throw new Error(`package.json target ${target} is not a ./dist/….js file`);
    return join(root, "src", `${match[1]}.ts`);
  });
}

/** The esbuild settings of `dist/`'s JavaScript (tests build with them too, into a folder of their own). */
export function distBuildOptions(outdir: string): BuildOptions {
  const packageJson: unknown = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  return {
    entryPoints: distEntryPoints(packageJson),
    outbase: join(root, "src"),
    outdir,
    bundle: true,
    // Shared code lives once, in chunks: a class is the same class whichever entry point loaded it.
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    format: "esm",
    platform: "node",
    target: "es2022",
    // Dependencies (zod, ai, js-tiktoken) stay imports, resolved by the user's install; only our code is bundled.
    packages: "external",
    // Names stay as written (`error.constructor.name`, stack traces), not renamed where two modules collide.
    keepNames: true,
    sourcemap: true,
    logLevel: "warning",
  };
}

async function main(): Promise<void> {
  const dist = join(root, "dist");
  // No file of an earlier build survives (a module that was deleted, a chunk with an old hash).
  rmSync(dist, { recursive: true, force: true });
  execFileSync(
    process.execPath,
    [
      join(root, "node_modules", "typescript", "bin", "tsc"),
      "-p",
      "tsconfig.build.json",
      "--emitDeclarationOnly",
    ],
    { cwd: root, stdio: "inherit" },
  );
  await build(distBuildOptions(dist));
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === import.meta.filename) await main();
