import { UnsupportedSchemaError } from "../typed-schema/index.js";

/**
 * Finds what a `$ref` points to inside the document: `#`, a JSON pointer (`#/$defs/Line`,
 * `#/definitions/a~1b`), an anchor (`#node`: a `$anchor`, or a draft-04 `id: "#node"`), or a URI naming
 * the document's own `$id`/`id` or one of its sub-schemas'. Anything else lives in another document,
 * which is never fetched: a clear error naming it.
 */
export class ReferenceResolver {
  readonly #byId = new Map<string, unknown>();
  readonly #base: string | undefined;

  constructor(private readonly root: Record<string, unknown>) {
    this.#base = idOf(root);
    this.#index(root, 0);
  }

  resolve(reference: string, path: string): unknown {
    const hash = reference.indexOf("#");
    const address = hash === -1 ? reference : reference.slice(0, hash);
    const fragment = hash === -1 ? "" : reference.slice(hash + 1);
    let document: unknown = this.root;
    if (address !== "") {
      document = this.#byId.get(this.#absolute(address)) ?? this.#byId.get(address);
      if (document === undefined) throw remote(reference, path);
    }
    if (fragment === "") return document;
    if (fragment.startsWith("/")) return pointer(document, fragment, reference, path);
    const anchored = this.#byId.get(`#${fragment}`) ?? this.#byId.get(this.#absolute(`#${fragment}`));
    if (anchored === undefined)
      throw new UnsupportedSchemaError(
        `the $ref "${reference}"`,
        path,
        `no sub-schema has the anchor "${fragment}"; add "$anchor": "${fragment}" to the one it means.`,
      );
    return anchored;
  }

  #absolute(address: string): string {
    if (this.#base === undefined) return address;
    try {
      return new URL(address, this.#base).href;
    } catch {
      return address;
    }
  }

  #index(node: unknown, depth: number): void {
    if (typeof node !== "object" || node === null || depth > 200) return;
    if (Array.isArray(node)) {
      for (const item of node) this.#index(item, depth + 1);
      return;
    }
    const record = node as Record<string, unknown>;
    const id = idOf(record);
    if (id !== undefined) {
      this.#byId.set(id, record);
      this.#byId.set(this.#absolute(id), record);
      const withoutFragment = this.#absolute(id).replace(/#$/, "");
      this.#byId.set(withoutFragment, record);
    }
    if (typeof record.$anchor === "string") {
      this.#byId.set(`#${record.$anchor}`, record);
      this.#byId.set(this.#absolute(`#${record.$anchor}`), record);
    }
    for (const [key, child] of Object.entries(record)) {
      // Example data and enum values are not schemas: an `id` inside them names nothing.
      if (key === "enum" || key === "const" || key === "default" || key === "examples" || key === "example")
        continue;
      this.#index(child, depth + 1);
    }
  }
}

function idOf(node: Record<string, unknown>): string | undefined {
  if (typeof node.$id === "string") return node.$id;
  // draft-04 spells it `id`; a property named `id` is an object, never a string, so it is not confused.
  if (typeof node.id === "string" && (node.$schema === undefined || /draft-0[34]/.test(String(node.$schema))))
    return node.id;
  return undefined;
}

function remote(reference: string, path: string): UnsupportedSchemaError {
  return new UnsupportedSchemaError(
    `the remote $ref "${reference}"`,
    path,
    "Sapling never fetches schemas; bundle the referenced schema into this one (under $defs) and point the $ref at it (#/$defs/Name).",
  );
}

function pointer(document: unknown, fragment: string, reference: string, path: string): unknown {
  let at: unknown = document;
  for (const raw of fragment.split("/").slice(1)) {
    const key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    at =
      typeof at === "object" && at !== null && Object.hasOwn(at, key)
        ? (at as Record<string, unknown>)[key]
        : undefined;
    if (at === undefined)
      throw new UnsupportedSchemaError(
        `the $ref "${reference}"`,
        path,
        `nothing is at "${key}" on that path; add the definition it names (under $defs).`,
      );
  }
  return at;
}
