import { createHash } from "node:crypto";
import type { BatchRow } from "../../batch/index.js";
import type { LlmFunction } from "../../ir/index.js";
import { CliError } from "../cli-context.js";
import { jsonLines } from "../json-lines.js";

/**
 * Reads the rows of `sapling batch` from JSON lines. A line is the function's arguments by name, with an
 * optional id field (`--id-field`, default `id`), or `{"id": …, "args": {…}}`. A row without an id is
 * named by its line number. Blank lines are skipped; anything else that is not a JSON object is an error
 * naming the line, before any request is sent.
 */
export function readBatchRows(text: string, source: string, fn: LlmFunction, idField: string): BatchRow[] {
  const parameters = new Set(fn.params.map((parameter) => parameter.name));
  const rows: BatchRow[] = [];
  for (const { value: parsed, where, line } of jsonLines(text, source)) {
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
      throw new CliError(
        `${where}: a row must be a JSON object of ${fn.name}'s arguments by name, got ${JSON.stringify(parsed).slice(0, 60)}`,
      );
    const record = parsed as Record<string, unknown>;
    const rawId = record[idField];
    if (rawId !== undefined && typeof rawId !== "string" && typeof rawId !== "number")
      throw new CliError(
        `${where}: the row's "${idField}" must be a string or a number, got ${JSON.stringify(rawId)}`,
      );
    const id = rawId === undefined ? String(line) : String(rawId);
    let args: Record<string, unknown>;
    const envelope = record.args;
    if (
      !parameters.has("args") &&
      envelope !== null &&
      typeof envelope === "object" &&
      !Array.isArray(envelope)
    ) {
      args = envelope as Record<string, unknown>;
    } else {
      args = { ...record };
      if (!parameters.has(idField)) delete args[idField];
    }
    rows.push({ id, args });
  }
  const seen = new Map<string, number>();
  for (const [position, row] of rows.entries()) {
    const earlier = seen.get(row.id);
    if (earlier !== undefined)
      throw new CliError(
        `${source}: rows ${earlier + 1} and ${position + 1} have the same id ${JSON.stringify(row.id)}. Ids must be unique, so that each result can be matched to its row.`,
      );
    seen.set(row.id, position);
  }
  return rows;
}

/** A digest of the rows, stored in the checkpoint so that a rerun with edited input is noticed. */
export function digestRows(rows: readonly BatchRow[]): string {
  const hash = createHash("sha256");
  for (const row of rows) hash.update(`${JSON.stringify([row.id, row.args])}\n`);
  return hash.digest("hex");
}
