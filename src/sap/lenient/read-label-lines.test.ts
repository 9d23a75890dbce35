import { describe, expect, it } from "vitest";
import { type JsonishNode, nodeToJsonText, type ObjectNode } from "./jsonish-node.js";
import {
  FenceLabelLines,
  LabelLines,
  readFenceLabelLines,
  readLabelLines,
  readLabelReading,
} from "./read-label-lines.js";

describe("readLabelLines", () => {
  it("reads key: value lines, scalars typed as written", () => {
    const node = readLabelLines("name: 'Ann'\nage: 31\nactive: True\nnote: None\n");
    expect(node && nodeToJsonText(node)).toBe('{"name":"Ann","age":31,"active":true,"note":null}');
  });

  it("collects bullet lines under an empty key", () => {
    const node = readLabelLines("title: Plan\nsteps:\n- one\n2) two\nowner: me");
    expect(node && nodeToJsonText(node)).toBe('{"title":"Plan","steps":["one","two"],"owner":"me"}');
  });

  it("needs at least two labels, so a lone 'Note:' in prose is not data", () => {
    expect(readLabelLines("Note: nothing to report.\nThanks!")).toBeUndefined();
  });

  it("ignores sentences whose text before the colon is too long to be a key", () => {
    expect(readLabelLines("Here is what I found after a long look: nothing\nx: 1")).toBeUndefined();
  });
});

/** `node` as an object (label lines that are not records). */
function objectOf(node: JsonishNode | undefined): ObjectNode | undefined {
  if (node !== undefined && node.kind !== "object") throw new Error(`not an object: ${node.kind}`);
  return node;
}

describe("LabelLines, a key written again", () => {
  it("starts over as its line is written, in the one object, and ends as final mode reads it", () => {
    const lines = new LabelLines();
    lines.push("a: first\nb: two\na");
    const object = objectOf(lines.node());
    expect(object && nodeToJsonText(object)).toBe('{"a":"first","b":"two"}');
    // (`a:` may yet be `a://…`: not a label until the next character.)
    lines.push(":");
    expect(objectOf(lines.node())?.entries).toHaveLength(2);
    lines.push(" 'open");
    // A value still open shows nothing yet: the key starts over as null.
    expect(lines.node()).toBe(object);
    expect(object?.entries.map(([key, node]) => [key, node.kind])).toEqual([
      ["a", "string"],
      ["b", "string"],
      ["a", "null"],
    ]);
    lines.push(" quote'");
    lines.end();
    expect(lines.node()).toBe(object);
    expect(object?.entries).toHaveLength(3);
    expect(nodeToJsonText(object!)).toBe(
      nodeToJsonText(readLabelLines("a: first\nb: two\na: 'open quote'")!),
    );
  });

  it("shows a plain value as written, growing in place", () => {
    const lines = new LabelLines();
    lines.push("a: first\nb: two\na: ag");
    const node = objectOf(lines.node())?.entries[2]?.[1];
    expect(node).toMatchObject({ kind: "string", value: "ag", complete: false });
    lines.push("ain\n");
    expect(objectOf(lines.node())?.entries[2]?.[1]).toBe(node);
    expect(node).toMatchObject({ kind: "string", value: "again", complete: true });
  });
});

describe("label lines in a fence", () => {
  it("reads a fence's content that holds no container", () => {
    const node = readFenceLabelLines("active: yes\nverified: None\n", 0)?.node;
    expect(node && nodeToJsonText(node)).toBe('{"active":"yes","verified":null}');
  });

  it("does not read a fence that holds a container: that is JSON", () => {
    expect(readFenceLabelLines('name: Ann\nage: 3\n{"name": "Bo"}\n', 1)).toBeUndefined();
  });

  it("stops reading, for good, once a container opens in the fence as it arrives", () => {
    const lines = new FenceLabelLines();
    lines.push("name: Ann\nage: 3\n", 0);
    expect(lines.node()).toBeDefined();
    lines.push('{"name": ', 1);
    lines.push("tail: 1\nmore: 2\n", 1);
    lines.end();
    expect(lines.node()).toBeUndefined();
  });

  it("changes its count only when the object may have changed, not on every line of code", () => {
    const lines = new FenceLabelLines();
    lines.push("const a = 1;\nconst b = 2;\n", 0);
    expect(lines.changes).toBe(0);
    lines.push("name: Ann\nage: 3\n", 0);
    const shown = lines.changes;
    expect(shown).toBeGreaterThan(0);
    lines.push("tags: x\n", 0);
    expect(lines.changes).not.toBe(shown);
  });
});

describe("LabelLines, the first key written again", () => {
  it("reads records beside the one object, and says a record was lost to the object", () => {
    const reading = readLabelReading("name: Ann\nage: 31\nname: Bob\nage: 45");
    expect(reading && nodeToJsonText(reading.node)).toBe('{"name":"Ann","age":31,"name":"Bob","age":45}');
    expect(reading?.repeats && nodeToJsonText(reading.repeats)).toBe(
      '[{"name":"Ann","age":31},{"name":"Bob","age":45}]',
    );
    expect(reading?.overwritten).toBe("name");
  });

  it("takes a lone key written again for a correction: records offered, no record lost", () => {
    const reading = readLabelReading("a: first\nb: two\na: again");
    expect(reading?.repeats && nodeToJsonText(reading.repeats)).toBe(
      '[{"a":"first","b":"two"},{"a":"again"}]',
    );
    expect(reading?.overwritten).toBeUndefined();
  });

  it("starts no record at another key written again", () => {
    expect(readLabelReading("name: Ann\nage: 31\nage: 32")?.repeats).toBeUndefined();
  });

  it("skips a lead-in label with no value, and offers nothing where blank lines make the records", () => {
    const reading = readLabelReading("People:\nname: Ann\nage: 31\nname: Bob\nage: 45");
    expect(reading?.repeats && nodeToJsonText(reading.repeats)).toBe(
      '[{"name":"Ann","age":31},{"name":"Bob","age":45}]',
    );
    expect(readLabelReading("name: Ann\nage: 31\n\nname: Bob\nage: 45")?.repeats).toBeUndefined();
  });
});
