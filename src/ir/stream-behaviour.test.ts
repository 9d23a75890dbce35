import { describe, expect, it } from "vitest";
import { inherentlyDone, streamBehaviourOf, TOP_LEVEL } from "./stream-behaviour.js";
import { t } from "./type-builders.js";

const noDoneClass = (): boolean => false;

describe("the streaming rule of partial types", () => {
  it("holds back scalars, enums, literals, media and unions of string literals until whole", () => {
    for (const type of [t.int(), t.float(), t.bool(), t.enumRef("E"), t.literal("a"), t.media("image")]) {
      expect(inherentlyDone(type, noDoneClass)).toBe(true);
    }
    expect(inherentlyDone(t.union(t.literal("a"), t.literal("b")), noDoneClass)).toBe(true);
    expect(inherentlyDone(t.union(t.literal("a"), t.literal(1)), noDoneClass)).toBe(false);
    expect(inherentlyDone(t.string(), noDoneClass)).toBe(false);
  });

  it("asks whether a class is @@stream.done", () => {
    expect(inherentlyDone(t.classRef("Done"), (name) => name === "Done")).toBe(true);
    expect(inherentlyDone(t.classRef("Open"), (name) => name === "Done")).toBe(false);
  });

  it("makes lists and maps never null and passes needed and done down", () => {
    const list = streamBehaviourOf(t.list(t.string()), TOP_LEVEL, noDoneClass);
    expect(list).toEqual({ needed: true, done: false, inner: { needed: true, done: false } });
    const field = streamBehaviourOf(t.string(), TOP_LEVEL, noDoneClass);
    expect(field).toEqual({ needed: false, done: false, inner: { needed: true, done: false } });
    const done = streamBehaviourOf(
      t.withAttrs(t.list(t.string()), { streamDone: true }),
      TOP_LEVEL,
      noDoneClass,
    );
    expect(done.inner).toEqual({ needed: true, done: true });
    const notNull = streamBehaviourOf(
      t.withAttrs(t.string(), { streamNotNull: true }),
      TOP_LEVEL,
      noDoneClass,
    );
    expect(notNull.needed).toBe(true);
  });
});
