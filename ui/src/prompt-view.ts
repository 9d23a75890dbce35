import type { DevPromptPreview } from "../../src/dev/dev-api.js";
import { previewPrompt } from "./api.js";
import { h, render } from "./dom.js";
import { markedText } from "./marked-text.js";
import { currentFunction, parsedArgs, state } from "./state.js";

/** `o200k_base 122 · cl100k_base 129` */
function tokens(counts: Record<string, number> | null): string {
  if (!counts) return "";
  return Object.entries(counts)
    .map(([encoding, count]) => `${count} ${encoding}`)
    .join(" · ");
}

/** The rendered messages, their token counts, the schema's cost beside JSON Schema's, and the cURL. */
export async function renderPromptView(root: HTMLElement): Promise<void> {
  const fn = currentFunction();
  if (!fn) return render(root, h("p", { class: "muted" }, "Pick a function."));
  const parsed = parsedArgs();
  if ("error" in parsed) return render(root, h("p", { class: "error" }, parsed.error));
  let preview: DevPromptPreview;
  try {
    preview = await previewPrompt({
      function: fn.name,
      args: parsed.args,
      ...(state.client ? { client: state.client } : {}),
      ...(state.testName ? { test: state.testName } : {}),
    });
  } catch (error) {
    return render(root, h("p", { class: "error" }, error instanceof Error ? error.message : String(error)));
  }
  const tokenizer = state.project?.tokenizer;
  const counted = preview.totalTokens !== null;
  render(
    root,
    h(
      "p",
      { class: "summary" },
      `${preview.messages.length} message${preview.messages.length === 1 ? "" : "s"} for client ${preview.client.name} (${preview.client.provider})`,
      counted
        ? h("span", { id: "total-tokens" }, ` · total ${tokens(preview.totalTokens)} tokens`)
        : h(
            "span",
            { id: "total-tokens", class: "muted" },
            ` · no token counts: ${tokenizer?.install ?? ""}`,
          ),
    ),
    preview.messages.map((message, index) =>
      h(
        "article",
        { class: "message", "aria-label": `message ${index + 1}, ${message.role}` },
        h(
          "header",
          {},
          h("span", { class: "role" }, message.role),
          message.tokens && h("span", { class: "tokens" }, `${tokens(message.tokens)} tokens`),
        ),
        message.parts.map((part) =>
          part.type === "text"
            ? markedText(
                part.text,
                part.outputFormat.map((span) => ({
                  ...span,
                  className: "output-format",
                  label: "ctx.output_format",
                })),
              )
            : h(
                "p",
                { class: "media-part" },
                part.url
                  ? h("img", { src: part.url, alt: `${part.kind} part` })
                  : `[${part.kind}: ${part.mediaType || "unknown type"}, ${part.base64Length ?? 0} base64 characters]`,
              ),
        ),
      ),
    ),
    h(
      "p",
      { class: "legend" },
      h("mark", { class: "output-format" }, "marked"),
      " = written by ctx.output_format",
    ),
    h("h3", {}, "Schema cost"),
    h(
      "table",
      { class: "schema-tokens" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col" }, "schema as"),
          (tokenizer?.encodings ?? []).map((encoding) => h("th", { scope: "col" }, encoding)),
        ),
      ),
      h(
        "tbody",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "row" }, "ctx.output_format"),
          (tokenizer?.encodings ?? []).map((encoding) =>
            h("td", {}, preview.schema.tokens?.[encoding] ?? "–"),
          ),
        ),
        h(
          "tr",
          {},
          h("th", { scope: "row" }, "JSON Schema (minified)"),
          (tokenizer?.encodings ?? []).map((encoding) =>
            h("td", {}, preview.schema.jsonSchemaTokens?.[encoding] ?? "–"),
          ),
        ),
      ),
    ),
    h("h3", {}, "Raw request (cURL, keys masked)"),
    preview.curlError
      ? h("p", { class: "error" }, preview.curlError)
      : h("pre", { class: "curl", tabindex: "0", "aria-label": "cURL command" }, preview.curl),
  );
}
