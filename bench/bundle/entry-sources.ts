/**
 * What loads with the runtime entry: its gzipped bytes, the lazy chunks', what a page loads by the end of
 * its first plain call (the entry and every chunk its `import()`s reach, but the media URL downloader's),
 * then the minified bytes each source file (or folder) puts in the entry's files, largest first.
 *
 *     npx tsx bench/bundle/entry-sources.ts [--root DIR] [--folders] [filter]
 *
 * `--root` measures another checkout (its own bench/bundle/measure-entry-bundle.ts), for side by side
 * comparisons; `filter` keeps the source paths that contain it.
 */
import { resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { build, type Metafile } from "esbuild";

const args = process.argv.slice(2);
const rootAt = args.indexOf("--root");
const root = resolve(rootAt === -1 ? resolve(import.meta.dirname, "..", "..") : (args[rootAt + 1] ?? "."));
const folders = args.includes("--folders");
const filter = args.find((arg, at) => !arg.startsWith("--") && at !== rootAt + 1) ?? "";

const measure: typeof import("./measure-entry-bundle.js") = await import(
  resolve(root, "bench", "bundle", "measure-entry-bundle.ts")
);
const entry = resolve(root, "src", "runtime", "index.ts");
const size = await measure.measureEntryBundle(entry);

/** The first plain call's bytes: the measure's build, each output gzipped, its static and dynamic imports followed. */
async function firstCallBytes(): Promise<number> {
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: root,
    bundle: true,
    minify: true,
    splitting: true,
    outdir: resolve(root, "bundle-measure-out"),
    format: "esm",
    platform: "browser",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const outputs: Metafile["outputs"] = result.metafile.outputs;
  const gzipped = new Map(
    result.outputFiles.map((file) => [file.path.slice(root.length + 1), gzipSync(file.contents).byteLength]),
  );
  const start = Object.keys(outputs).find((path) => outputs[path]?.entryPoint !== undefined) ?? "";
  const loaded = new Set<string>();
  const pending = [start];
  for (let path = pending.pop(); path !== undefined; path = pending.pop()) {
    if (loaded.has(path)) continue;
    loaded.add(path);
    for (const imported of outputs[path]?.imports ?? []) {
      const media = /media|blocked-address/.test(imported.path);
      if (!imported.external && (imported.kind === "import-statement" || !media)) pending.push(imported.path);
    }
  }
  return [...loaded].reduce((total, path) => total + (gzipped.get(path) ?? 0), 0);
}

console.log(
  `entry ${size.gzipped} B gzipped (${size.minified} minified), lazy ${size.lazyGzipped} B gzipped, ` +
    `first plain call ${await firstCallBytes()} B gzipped in all`,
);
const rows = new Map<string, number>();
for (const [source, bytes] of size.sourceBytes) {
  if (!source.includes(filter)) continue;
  const key = folders ? source.slice(0, source.lastIndexOf("/")) : source;
  rows.set(key, (rows.get(key) ?? 0) + bytes);
}
for (const [key, bytes] of [...rows].sort((a, b) => b[1] - a[1])) {
  console.log(`${String(bytes).padStart(8)} ${key}`);
}
