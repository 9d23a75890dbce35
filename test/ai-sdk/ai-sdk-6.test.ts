import * as aiTest from "ai/test";
import { expect, it } from "vitest";
import { describeAiSdk } from "./ai-sdk-suite.js";

it("runs against AI SDK 6 (the `ai` devDependency: its test helpers stop at the V3 model)", () => {
  expect("MockLanguageModelV3" in aiTest).toBe(true);
  expect("MockLanguageModelV4" in aiTest).toBe(false);
});

describeAiSdk(6);
