/**
 * The room table of docs/architecture.md (read from the doc: the table exists once), enforced: every relative import that leaves a room must go to
 * a room it may import, through that room's `index.ts` door; browser-safe rooms import no `node:` module.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { describe, expect, it } from "vitest";

const srcRoot = resolve(import.meta.dirname, "..", "src");
const architecture = readFileSync(resolve(import.meta.dirname, "..", "docs", "architecture.md"), "utf8");

/** One row of the room table in docs/architecture.md, as written. */
interface RoomRow {
  room: string;
  mayImport: string;
  browserSafe: string;
}

/**
 * The room table is kept once, in docs/architecture.md; this test reads it. A row's first cell names the
 * room (`` `zod/` ``, or `` `src/index.ts` (root) ``); "may import" is a list of rooms, `nothing`,
 * `everything`, or `every room but a, b`; "browser-safe" is `yes` or `no`. Rows not under `src/` (`ui/`)
 * have `—` and are not rooms of this check.
 */
function readRoomTable(markdown: string): RoomRow[] {
  const rows: RoomRow[] = [];
  const start = markdown.indexOf("| room (src/…) |");
  if (start === -1)
    throw new Error('docs/architecture.md has no room table (a header starting "| room (src/…) |")');
  for (const line of markdown.slice(start).split("\n").slice(2)) {
    if (!line.startsWith("|")) break;
    const cells = line.split("|").map((cell) => cell.trim());
    const [, first = "", , mayImport = "", browserSafe = ""] = cells;
    const name = /^`src\/index\.ts` \(root\)$/.test(first) ? "root" : /^`([a-z-]+)\/`/.exec(first)?.[1];
    if (name === undefined)
      throw new Error(`docs/architecture.md: cannot read the room of the row "${line}"`);
    if (mayImport === "—") continue;
    rows.push({ room: name, mayImport, browserSafe });
  }
  return rows;
}

/** The rooms a row's "may import" cell allows, among `rooms`. */
function allowedRooms(row: RoomRow, rooms: readonly string[]): string[] {
  const cell = row.mayImport;
  if (cell === "nothing") return [];
  if (cell === "everything") return rooms.filter((room) => room !== row.room);
  const but = /^every room but (.+)$/.exec(cell);
  if (but) {
    const excluded = new Set((but[1] ?? "").split(",").map((room) => room.trim()));
    return rooms.filter((room) => room !== row.room && !excluded.has(room));
  }
  // A remark in parentheses (`typed-schema (types only)`) explains an entry; the room is what counts.
  const listed = cell.split(",").map((room) => room.replace(/\(.*\)/, "").trim());
  const unknown = listed.filter((room) => !rooms.includes(room));
  if (unknown.length > 0) {
    throw new Error(
      `docs/architecture.md: the row of ${row.room} allows unknown rooms: ${unknown.join(", ")}`,
    );
  }
  return listed;
}

const table = readRoomTable(architecture);
const roomNames = table.map((row) => row.room);
const allowed: Record<string, readonly string[]> = Object.fromEntries(
  table.map((row) => [row.room, allowedRooms(row, roomNames)]),
);
/** Rooms that must run in browsers and edge workers: no Node built-ins. */
const browserSafe = new Set(table.filter((row) => row.browserSafe === "yes").map((row) => row.room));

function listSources(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return listSources(path);
    return name.endsWith(".ts") && !name.endsWith(".test.ts") ? [path] : [];
  });
}

function roomOf(path: string): string {
  const parts = relative(srcRoot, path).split(sep);
  return parts.length === 1 ? "root" : (parts[0] ?? "root");
}

const importPattern =
  /(?:^|\n)\s*(?:import|export)[^"'`;]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function importsOf(text: string): string[] {
  return [...text.matchAll(importPattern)].map((match) => match[1] ?? match[2] ?? "");
}

function findViolations(): string[] {
  const violations: string[] = [];
  for (const file of listSources(srcRoot)) {
    const room = roomOf(file);
    const text = readFileSync(file, "utf8");
    for (const specifier of importsOf(text)) {
      const where = `${relative(srcRoot, file)} imports "${specifier}"`;
      if (
        specifier.startsWith("node:") ||
        ["fs", "path", "http", "os", "child_process"].includes(specifier)
      ) {
        if (browserSafe.has(room))
          violations.push(`${where}: room "${room}" must stay free of Node built-ins`);
        continue;
      }
      if (!specifier.startsWith(".")) continue;
      const target = resolve(file, "..", specifier);
      const targetRoom = roomOf(target);
      if (targetRoom === room) continue;
      if (!(allowed[room] ?? []).includes(targetRoom)) {
        violations.push(`${where}: room "${room}" may not import room "${targetRoom}"`);
      } else if (targetRoom !== "root" && !/[/\\]index\.js$/.test(target)) {
        violations.push(`${where}: import room "${targetRoom}" through its door, ../${targetRoom}/index.js`);
      }
    }
  }
  return violations;
}

describe("room table", () => {
  it("has a row for every room under src/ and no row for a room that is not there", () => {
    const folders = readdirSync(srcRoot).filter((name) => statSync(join(srcRoot, name)).isDirectory());
    expect([...roomNames].filter((room) => room !== "root").sort()).toEqual(folders.sort());
  });

  it("reads every form of the may-import cell", () => {
    const rooms = ["a", "b", "c"];
    const row = (mayImport: string): RoomRow => ({ room: "a", mayImport, browserSafe: "yes" });
    expect(allowedRooms(row("nothing"), rooms)).toEqual([]);
    expect(allowedRooms(row("everything"), rooms)).toEqual(["b", "c"]);
    expect(allowedRooms(row("every room but c"), rooms)).toEqual(["b"]);
    expect(allowedRooms(row("b, c"), rooms)).toEqual(["b", "c"]);
    expect(allowedRooms(row("b (types only), c"), rooms)).toEqual(["b", "c"]);
    expect(() => allowedRooms(row("b, d"), rooms)).toThrow(/unknown rooms: d/);
  });

  it("every cross-room import follows docs/architecture.md", () => {
    expect(findViolations()).toEqual([]);
  });

  it("only src/react imports react (an optional peer, loaded by sapling-llm/react alone)", () => {
    const importers = listSources(srcRoot)
      .filter((file) =>
        importsOf(readFileSync(file, "utf8")).some((specifier) => /^react(-dom)?(\/|$)/.test(specifier)),
      )
      .map((file) => roomOf(file));
    expect(importers.length).toBeGreaterThan(0);
    expect([...new Set(importers)]).toEqual(["react"]);
  });

  it("detects a forbidden import", () => {
    expect(importsOf('import { x } from "../cli/index.js";\nexport * from "./y.js";')).toEqual([
      "../cli/index.js",
      "./y.js",
    ]);
    expect(roomOf(join(srcRoot, "sap", "coerce.ts"))).toBe("sap");
    expect(roomOf(join(srcRoot, "index.ts"))).toBe("root");
  });
});
