import type { Diagnostic } from "../diagnostics/index.js";
import type { SourceFile } from "./ast.js";
import { CheckContext, type ProjectSymbols } from "./check-context.js";
import { checkDeclarations, checkProjectCycles } from "./check-project.js";
import { collectSymbols, emptySymbols } from "./collect-symbols.js";

/** What one file's declaration checks produced, and what they read from the symbol table. */
interface FileCheck {
  file: SourceFile;
  diagnostics: Diagnostic[];
  /**
   * Every symbol-table read and what it saw then: `types:Name` (that declaration), `types:#names` (the
   * namespace's names, from `keys()` or `size`) or `types:*` (its names and each entry's kind and file, from
   * iterating its entries).
   */
  reads: Map<string, string>;
}

type Namespace = keyof ProjectSymbols;

/**
 * `checkProject`, re-using each file's declaration checks from the previous run when nothing they read
 * has changed. A file's checks are re-run when its syntax tree is a new one, or when a declaration they
 * looked up in the symbol table (by name, or a whole namespace they iterated) differs in any way from the
 * one they saw — its node, spans included, and its file. A check that iterates a namespace's entries may
 * read each entry's name, kind and file only (the prompt check collects the enum names that way); one that
 * needs more of a declaration looks it up by name. Collecting symbols (duplicates) and the cycle checks
 * always run over the whole project. The result equals a fresh `checkProject` (a test compares them
 * over random edits); what it saves is the per-declaration work of the files an edit cannot affect.
 */
export class IncrementalChecker {
  private previous = new Map<string, FileCheck>();
  /** How many files' declaration checks the last run re-used (for tests and the benchmark). */
  reused = 0;

  check(files: readonly SourceFile[]): { symbols: ProjectSymbols; diagnostics: Diagnostic[] } {
    const context = new CheckContext(emptySymbols());
    collectSymbols(files, context);
    const symbols = context.symbols;
    const seen = new Seen(symbols);
    const next = new Map<string, FileCheck>();
    this.reused = 0;
    for (const file of files) {
      const earlier = this.previous.get(file.path);
      if (
        earlier &&
        earlier.file === file &&
        [...earlier.reads].every(([read, was]) => seen.key(read) === was)
      ) {
        for (const diagnostic of earlier.diagnostics) context.diagnostics.push(diagnostic);
        next.set(file.path, earlier);
        this.reused++;
        continue;
      }
      const reads = new Map<string, string>();
      const before = context.diagnostics.length;
      checkDeclarations(
        file,
        recording(symbols, (read) => reads.set(read, seen.key(read))),
        context,
      );
      next.set(file.path, { file, diagnostics: context.diagnostics.slice(before), reads });
    }
    this.previous = next;
    checkProjectCycles(symbols, context);
    return { symbols, diagnostics: context.diagnostics };
  }
}

/** Identities of what a read sees: a declaration's node and file, or a whole namespace's. */
class Seen {
  private readonly ids = new WeakMap<object, number>();
  /** Keys already computed in this run (many files read the same names). */
  private readonly known = new Map<string, string>();
  private nextId = 0;

  constructor(private readonly symbols: ProjectSymbols) {}

  key(read: string): string {
    let key = this.known.get(read);
    if (key !== undefined) return key;
    const colon = read.indexOf(":");
    const namespace = read.slice(0, colon) as Namespace;
    const name = read.slice(colon + 1);
    if (name === "#names") key = [...this.symbols[namespace].keys()].join(",");
    else if (name === "*")
      key = [...this.symbols[namespace]]
        .map(([entryName, entry]) => `${entryName}=${(entry.node as { kind: string }).kind}@${entry.file}`)
        .join(",");
    else key = this.entryKey(this.symbols[namespace].get(name));
    this.known.set(read, key);
    return key;
  }

  /** Nodes of a file that was not re-parsed are the same objects, so identity says "unchanged". */
  private entryKey(entry: { node: object; file: string } | undefined): string {
    if (!entry) return "-";
    let id = this.ids.get(entry.node);
    if (id === undefined) {
      id = this.nextId++;
      this.ids.set(entry.node, id);
    }
    return `${entry.file}#${id}`;
  }
}

/** The symbol table seen through maps that report each lookup and each iteration. */
function recording(symbols: ProjectSymbols, read: (key: string) => void): ProjectSymbols {
  const wrap = <Value>(namespace: Namespace, map: Map<string, Value>): Map<string, Value> =>
    new Proxy(map, {
      get(target, property) {
        if (property === "get" || property === "has")
          return (name: string) => {
            read(`${namespace}:${name}`);
            return property === "get" ? target.get(name) : target.has(name);
          };
        if (property === "size") {
          read(`${namespace}:#names`);
          return target.size;
        }
        const value = Reflect.get(target, property, target) as unknown;
        if (typeof value !== "function") return value;
        const whole = property === "keys" ? `${namespace}:#names` : `${namespace}:*`;
        return (...args: unknown[]) => {
          read(whole);
          return (value as (...items: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  const result = {} as Record<Namespace, Map<string, unknown>>;
  for (const namespace of Object.keys(symbols) as Namespace[])
    result[namespace] = wrap(namespace, symbols[namespace] as Map<string, unknown>);
  return result as unknown as ProjectSymbols;
}
