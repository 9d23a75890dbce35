/**
 * The streaming conformance table format (`test/fixtures/sap-stream/*.cases`).
 *
 * ```
 * === a readable case name
 * schema: stream                      (test/fixtures/sap-stream/schemas/stream.baml, the default)
 * type: Order                         (any BAML type expression)
 * monotonic: no                       (optional: the partials may go back, said why in the name)
 * --- raw
 * {"id": "o1⏸", "items": [⏸ ...       (the answer; each ⏸ marks a prefix whose partial is checked)
 * --- partials
 * {"id":"o1","items":[],"status":null,"note":null,"gift":null}
 * ...                                 (one JSON value per ⏸, in order)
 * ```
 *
 * The raw block runs to `--- partials`; the partials block to the next `===` line. The markers are removed
 * from the answer; the partial after the text up to a marker must equal the stated value, both one-shot
 * (`parsePartial`) and streamed one character at a time.
 */

export const MARK = "⏸";

export interface StreamCase {
  name: string;
  schema: string;
  type: string;
  monotonic: boolean;
  /** The answer with its markers. */
  marked: string;
  partials: unknown[] | undefined;
  line: number;
}

export function readStreamCases(text: string, file: string): { preamble: string; cases: StreamCase[] } {
  const lines = text.split("\n");
  let index = 0;
  const preamble: string[] = [];
  while (index < lines.length && !lines[index]!.startsWith("=== ")) preamble.push(lines[index++]!);
  const cases: StreamCase[] = [];
  while (index < lines.length) {
    const header = lines[index]!;
    if (!header.startsWith("=== ")) {
      if (header.trim() !== "")
        throw new Error(`${file}:${index + 1}: expected "=== case name", found ${JSON.stringify(header)}`);
      index++;
      continue;
    }
    const entry: StreamCase = {
      name: header.slice(4).trim(),
      schema: "stream",
      type: "",
      monotonic: true,
      marked: "",
      partials: undefined,
      line: index + 1,
    };
    index++;
    while (index < lines.length && !lines[index]!.startsWith("--- ")) {
      const line = lines[index++]!;
      if (line.trim() === "") continue;
      const match = /^(schema|type|monotonic): (.*)$/.exec(line);
      if (!match) throw new Error(`${file}:${index}: unknown header ${JSON.stringify(line)}`);
      if (match[1] === "schema") entry.schema = match[2]!;
      else if (match[1] === "type") entry.type = match[2]!;
      else entry.monotonic = match[2] !== "no";
    }
    if (lines[index] !== "--- raw") throw new Error(`${file}:${index + 1}: expected "--- raw"`);
    index++;
    const raw: string[] = [];
    while (index < lines.length && lines[index] !== "--- partials" && !lines[index]!.startsWith("=== "))
      raw.push(lines[index++]!);
    entry.marked = raw.join("\n").replace(/\n+$/, "");
    if (lines[index] === "--- partials") {
      index++;
      const partials: unknown[] = [];
      while (index < lines.length && !lines[index]!.startsWith("=== ")) {
        const line = lines[index++]!;
        if (line.trim() !== "") partials.push(JSON.parse(line));
      }
      entry.partials = partials;
    }
    if (entry.type === "") throw new Error(`${file}:${entry.line}: the case has no type`);
    cases.push(entry);
  }
  return { preamble: preamble.join("\n"), cases };
}

export function writeStreamCases(file: { preamble: string; cases: StreamCase[] }): string {
  const blocks = file.cases.map((entry) => {
    const headers = [`=== ${entry.name}`];
    if (entry.schema !== "stream") headers.push(`schema: ${entry.schema}`);
    headers.push(`type: ${entry.type}`);
    if (!entry.monotonic) headers.push("monotonic: no");
    const partials = (entry.partials ?? []).map((value) => JSON.stringify(value));
    return [...headers, "--- raw", entry.marked, "--- partials", ...partials].join("\n");
  });
  return `${file.preamble.replace(/\n+$/, "")}\n\n${blocks.join("\n\n")}\n`;
}
