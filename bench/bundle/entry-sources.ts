/**
 * Prints what loads with the runtime entry: gzipped and lazy totals, then minified bytes per source file
 * (largest first) or per folder. `npx tsx bench/bundle/entry-sources.ts [--folders] [filter]`.
 */
import { measureEntryBundle, runtimeEntry } from "./measure-entry-bundle.js";

const args = process.argv.slice(2);
const folders = args.includes("--folders");
const filter = args.find((arg) => !arg.startsWith("--")) ?? "";
const size = await measureEntryBundle(runtimeEntry);
console.log(
  `entry ${size.gzipped} B gzipped (${size.minified} minified), lazy ${size.lazyGzipped} B gzipped`,
);
const rows = new Map<string, number>();
for (const [source, bytes] of size.sourceBytes) {
  if (!source.includes(filter)) continue;
  const key = folders ? source.slice(0, source.lastIndexOf("/")) : source;
  rows.set(key, (rows.get(key) ?? 0) + bytes);
}
for (const [key, bytes] of [...rows].sort((a, b) => b[1] - a[1]))
  console.log(`${String(bytes).padStart(8)} ${key}`);
