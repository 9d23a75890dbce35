import { workMeter } from "../work-meter.js";
import type { ArrayNode, JsonishNode } from "./jsonish-node.js";
import { indentOf, isItem, readYamlBlock } from "./read-yaml-block.js";

/**
 * A YAML block under a key with nothing after it (`items:` then indented lines), read as a stream
 * delivers its lines, as `readYamlBlock` reads it whole: the block is a sequence or a mapping whose units
 * (an item and the lines under it; a key and the lines under it) start at one indentation. A finished
 * unit (the next one has begun) is read once, by `readYamlBlock` over its own lines, and kept; only the
 * unit being written is read again at each read. So a long list of items costs what arrived, not the
 * square of its length. Anything else under the key (a plain scalar over lines, a line less indented
 * than the units, an item among keys) gives up: the section is read whole from then on, and a section
 * that closes is always read whole, once.
 */
export class YamlUnits {
  /** Lines of the section's `lines` read so far. */
  fed = 0;
  gaveUp = false;
  /** The units' indentation, once the first one has begun. */
  private first: number | undefined;
  private sequence = false;
  /** The lines of the unit being written (with the blank lines and comments after it). */
  private unit: string[] = [];
  /** The items (or entries) of the finished units. */
  private readonly items: JsonishNode[] = [];
  private readonly entries: [string, JsonishNode][] = [];
  /** A sequence's value: one node grown in place, so the list's coercer keeps the items it read. */
  private readonly list: ArrayNode = { kind: "array", items: [], complete: false };
  /** The first items of `list` that are finished ones (`items`). */
  private listed = 0;

  /** `keyIndent`: the key's indentation; `mark`: marks the unit being written as still growing. */
  constructor(
    private readonly keyIndent: number,
    private readonly mark: (node: JsonishNode) => JsonishNode,
  ) {}

  add(line: string): void {
    workMeter.steps += line.length + 1;
    if (this.gaveUp) return;
    const text = line.trim();
    if (text === "" || text.startsWith("#")) {
      if (this.first !== undefined) this.unit.push(line);
      return;
    }
    const starts = this.startsUnit(line);
    if (starts === "no") {
      this.gaveUp = true;
      return;
    }
    if (starts === "inside") {
      this.unit.push(line);
      return;
    }
    if (this.first === undefined) {
      this.first = indentOf(line);
      this.sequence = isItem(text);
    } else if (!this.finish(this.unit)) return;
    this.unit = [line];
  }

  /** The block's value with `partial` (the line being written) after it; undefined: read it whole. */
  value(partial: string | undefined): JsonishNode | undefined {
    if (this.gaveUp || this.first === undefined) return undefined;
    const shown = partial !== undefined && partial.trim() !== "" ? partial : undefined;
    const starts = shown === undefined ? "inside" : this.startsUnit(shown);
    if (starts === "no") return undefined;
    // The unit being written, and the line being written (on its own when it begins the next unit).
    const open =
      shown === undefined ? [this.unit] : starts === "unit" ? [this.unit, [shown]] : [[...this.unit, shown]];
    const tail: JsonishNode[] = [];
    const keys: string[] = [];
    for (const lines of open) {
      for (const line of lines) workMeter.steps += line.length + 1;
      const node = readYamlBlock(lines, this.keyIndent);
      if (node?.kind === "array" && this.sequence) tail.push(...node.items);
      else if (node?.kind === "object" && !this.sequence) {
        for (const [key, value] of node.entries) {
          keys.push(key);
          tail.push(value);
        }
      } else return undefined;
    }
    if (tail.length > 0) tail[tail.length - 1] = this.mark(tail.at(-1)!);
    if (this.sequence) {
      workMeter.steps += this.items.length - this.listed + tail.length;
      const items = this.list.items;
      items.length = this.listed;
      for (let at = this.listed; at < this.items.length; at++) items.push(this.items[at]!);
      this.listed = this.items.length;
      items.push(...tail);
      return this.list;
    }
    // (A new object at each read: a class's coercer reads each entry once, so the entry being written,
    // a new node at each read, could not be replaced in place. A mapping under a key has few entries.)
    workMeter.steps += this.entries.length + tail.length;
    const entries = [...this.entries];
    tail.forEach((value, at) => {
      entries.push([keys[at]!, value]);
    });
    return { kind: "object", entries, complete: false };
  }

  /** Whether `line` (not blank) begins a unit, goes on the one being written, or is no unit's. */
  private startsUnit(line: string): "unit" | "inside" | "no" {
    const indent = indentOf(line);
    const text = line.trim();
    if (this.first === undefined) {
      const opens = indent > this.keyIndent || (indent === this.keyIndent && isItem(text));
      return opens && (isItem(text) || /^[^\s#'"{[][^:]*:(?:\s|$)/.test(text)) ? "unit" : "no";
    }
    if (indent > this.first) return "inside";
    if (indent < this.first || isItem(text) !== this.sequence) return "no";
    return "unit";
  }

  /** The unit's lines read and kept; false (given up) when they are not one unit of the block. */
  private finish(lines: string[]): boolean {
    for (const line of lines) workMeter.steps += line.length + 1;
    const node = readYamlBlock(lines, this.keyIndent);
    if (node?.kind === "array" && this.sequence) this.items.push(...node.items);
    else if (node?.kind === "object" && !this.sequence) this.entries.push(...node.entries);
    else this.gaveUp = true;
    return !this.gaveUp;
  }
}
