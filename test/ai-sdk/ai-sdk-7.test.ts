import * as aiTest from "ai/test";
import { expect, it, vi } from "vitest";
import { describeAiSdk } from "./ai-sdk-suite.js";

// `ai-v7` is AI SDK 7 under an npm alias (package.json): every import of `ai` in this file's module graph,
// `sapling-llm/ai-sdk`'s own included, loads it instead of the AI SDK 6 that `ai` names.
vi.mock("ai", () => import("ai-v7"));
vi.mock("ai/test", () => import("ai-v7/test"));

it("runs against AI SDK 7 (the `ai-v7` alias: its test helpers have the V4 model)", () => {
  expect("MockLanguageModelV4" in aiTest).toBe(true);
});

describeAiSdk(7);
