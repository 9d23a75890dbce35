import type { JsonishNode, ObjectNode } from "./jsonish-node.js";

/** `key: value` (optionally bulleted or bold), the key one to five words. */
const LABEL_LINE =
  /^\s*(?:[-*•]\s+)?(?:\*\*)?["']?([\p{L}\p{N}_][\p{L}\p{N}_ -]{0,40}?)["']?(?:\*\*)?\s*:(?!\/\/)(?:\*\*)?\s*(.*)$/u;
const BULLET = /^\s*(?:[-*•+]|\d{1,3}[.)])\s+(.*)$/;
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * An answer written as `key: value` lines instead of JSON (YAML-ish, or "Name: Ann" prose), read as one
 * object. A key with nothing after its colon collects the bullet lines under it as a list. Returns
 * undefined unless at least two lines are labels, so a lone "Note: …" in prose is not taken for data.
 */
export function readLabelLines(text: string): ObjectNode | undefined {
  const entries: [string, JsonishNode][] = [];
  let openList: JsonishNode[] | undefined;
  let labels = 0;
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === "") continue;
    const bullet = openList ? BULLET.exec(line) : null;
    if (bullet && openList) {
      openList.push(scalar(bullet[1]!));
      continue;
    }
    const label = LABEL_LINE.exec(line);
    if (!label || label[1]!.trim().split(/\s+/).length > 5) {
      openList = undefined;
      continue;
    }
    labels++;
    const value = label[2]!.trim();
    if (value === "") {
      openList = [];
      entries.push([label[1]!.trim(), { kind: "array", items: openList, complete: true }]);
    } else {
      openList = undefined;
      entries.push([label[1]!.trim(), scalar(value)]);
    }
  }
  return labels >= 2 ? { kind: "object", entries, complete: true } : undefined;
}

/** A value as written: a number, a JSON/Python literal, a quoted string (unquoted), or plain text. */
function scalar(written: string): JsonishNode {
  const text = written.trim().replace(/,$/, "").trim();
  const lower = text.toLowerCase();
  if (lower === "true" || lower === "false") return { kind: "bool", value: lower === "true", complete: true };
  if (lower === "null" || lower === "none") return { kind: "null", complete: true };
  if (NUMBER.test(text)) return { kind: "number", value: Number(text), text, complete: true };
  const quoted = /^(["'])(.*)\1$/.exec(text);
  return { kind: "string", value: quoted ? quoted[2]! : text, complete: true };
}
