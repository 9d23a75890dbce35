import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { IrIndex } from "../../ir/index.js";
import { compile } from "../../language/index.js";
import { toMediaArguments } from "./media-arguments.js";

const source = `
class Page {
  scan image
  caption string
}

function Read(pages: Page[], cover: image?, note: string) -> string {
  client "openai/gpt-4o-mini"
  prompt #"{{ note }}"#
}
`;

describe("toMediaArguments", () => {
  it("reads files relative to the base folder, also inside lists of classes, and keeps other values", async () => {
    const { ir } = compile({ "main.baml": source });
    if (!ir) throw new Error("fixture does not compile");
    const folder = mkdtempSync(join(tmpdir(), "sapling-media-"));
    writeFileSync(join(folder, "page.png"), Buffer.from([1, 2, 3]));
    const args = await toMediaArguments(
      {
        pages: [{ scan: { file: "page.png" }, caption: "one" }],
        cover: { url: "https://example.com/c.jpg", media_type: "image/jpeg" },
        note: "hi",
      },
      ir.functions[0]!,
      new IrIndex(ir),
      { baseDir: folder, where: "--args", relativeTo: "the current folder" },
    );
    expect(args).toEqual({
      pages: [
        { scan: { kind: "media", type: "image", base64: "AQID", mediaType: "image/png" }, caption: "one" },
      ],
      cover: { kind: "media", type: "image", url: "https://example.com/c.jpg", mediaType: "image/jpeg" },
      note: "hi",
    });
  });

  it("names the origin and the base folder when a file cannot be read", async () => {
    const { ir } = compile({ "main.baml": source });
    if (!ir) throw new Error("fixture does not compile");
    const pending = toMediaArguments(
      { pages: [], cover: { file: "missing.png" }, note: "" },
      ir.functions[0]!,
      new IrIndex(ir),
      { baseDir: "/nowhere", where: "test Jane", relativeTo: "the .baml file" },
    );
    await expect(pending).rejects.toThrow(
      "test Jane: cannot read image file /nowhere/missing.png (paths are relative to the .baml file).",
    );
  });

  it("reads only files inside confineTo: refuses .., absolute paths and symlinks that lead out", async () => {
    const { ir } = compile({ "main.baml": source });
    if (!ir) throw new Error("fixture does not compile");
    const outside = mkdtempSync(join(tmpdir(), "sapling-secret-"));
    writeFileSync(join(outside, "secret.png"), "not yours");
    const project = mkdtempSync(join(tmpdir(), "sapling-project-"));
    mkdirSync(join(project, "baml_src"));
    mkdirSync(join(project, "images"));
    writeFileSync(join(project, "images", "page.png"), Buffer.from([1, 2, 3]));
    symlinkSync(join(outside, "secret.png"), join(project, "images", "link.png"));
    const read = (file: string) =>
      toMediaArguments({ pages: [], cover: { file }, note: "" }, ir.functions[0]!, new IrIndex(ir), {
        baseDir: join(project, "baml_src"),
        where: "the arguments",
        relativeTo: "the baml_src folder",
        confineTo: project,
      });
    // Inside the project, baml_src's parent included.
    expect((await read("../images/page.png")).cover).toMatchObject({ base64: "AQID" });
    for (const file of [
      `../../${outside.split("/").at(-1)}/secret.png`,
      join(outside, "secret.png"),
      "../images/link.png",
    ]) {
      await expect(read(file), file).rejects.toThrow(
        `the arguments: the image file ${JSON.stringify(file)} is outside the project folder ${project}`,
      );
    }
    await expect(read("../images/missing.png")).rejects.toThrow("cannot read image file");
  });
});
