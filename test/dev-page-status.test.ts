/** The dev page's status line, a pure function of the project view (the page itself runs in Chromium). */
import { describe, expect, it } from "vitest";
import { projectStatus } from "../ui/src/project-status.js";

const diagnostics = (errors: number) => ({ errors, warnings: 0, text: "", items: [] });

describe("the dev page's status line", () => {
  it("says up to date only while the project compiles", () => {
    expect(projectStatus({ version: 3, diagnostics: diagnostics(0) })).toEqual({
      text: "Up to date (version 3)",
      state: "current",
    });
  });

  it("says the page shows the last state that compiled while the files have errors", () => {
    for (const errors of [1, 2]) {
      const status = projectStatus({ version: 4, diagnostics: diagnostics(errors) });
      expect(status.state).toBe("errors");
      expect(status.text).not.toContain("Up to date");
      expect(status.text).toBe(
        `${errors} error${errors === 1 ? "" : "s"}: showing the last state that compiled`,
      );
    }
  });
});
