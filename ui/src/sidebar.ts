import { h, json, render } from "./dom.js";
import { state } from "./state.js";

/** The functions with their test blocks; picking one fills the arguments editor with its values. */
export function renderSidebar(
  root: HTMLElement,
  pick: (functionName: string, testName: string | undefined) => void,
): void {
  const project = state.project;
  if (!project || project.functions.length === 0) {
    render(root, h("p", { class: "muted" }, "No functions yet."));
    return;
  }
  render(
    root,
    h("h2", {}, "Functions"),
    h(
      "ul",
      { class: "functions" },
      project.functions.map((fn) =>
        h(
          "li",
          {},
          h(
            "button",
            {
              type: "button",
              class: "function",
              "aria-current": fn.name === state.functionName && state.testName === undefined ? "true" : null,
              onclick: () => pick(fn.name, undefined),
            },
            h("span", { class: "name" }, fn.name),
            h(
              "span",
              { class: "signature" },
              `(${fn.params.map((param) => `${param.name}: ${param.type}`).join(", ")}) → ${fn.returnType}`,
            ),
          ),
          fn.tests.length > 0 &&
            h(
              "ul",
              { class: "tests", "aria-label": `Tests of ${fn.name}` },
              fn.tests.map((test) =>
                h(
                  "li",
                  {},
                  h(
                    "button",
                    {
                      type: "button",
                      class: "test",
                      "aria-current":
                        fn.name === state.functionName && test.name === state.testName ? "true" : null,
                      onclick: () => pick(fn.name, test.name),
                    },
                    `test ${test.name}`,
                  ),
                ),
              ),
            ),
        ),
      ),
    ),
  );
}

/** The arguments editor (JSON), the media it names, the client and the mock switch. */
export function renderCallSetup(
  root: HTMLElement,
  changed: (what: "args" | "client" | "mock") => void,
): void {
  const project = state.project;
  const fn = project?.functions.find((item) => item.name === state.functionName);
  if (!project || !fn) {
    render(root);
    return;
  }
  const test = fn.tests.find((item) => item.name === state.testName);
  const editor = h("textarea", {
    id: "args",
    rows: Math.min(12, Math.max(4, state.argsText.split("\n").length + 1)),
    spellcheck: "false",
    "aria-describedby": "args-help",
    oninput: (event: Event) => {
      state.argsText = (event.target as HTMLTextAreaElement).value;
      changed("args");
    },
  });
  editor.value = state.argsText;
  const clients = h(
    "select",
    {
      id: "client",
      onchange: (event: Event) => {
        state.client = (event.target as HTMLSelectElement).value;
        changed("client");
      },
    },
    h("option", { value: "" }, `its own (${fn.client})`),
    project.clients.map((client) =>
      h(
        "option",
        { value: client.name, selected: client.name === state.client },
        `${client.name} (${client.provider})`,
      ),
    ),
  );
  render(
    root,
    h(
      "div",
      { class: "setup-title" },
      h("h2", {}, test ? `${fn.name} · test ${test.name}` : fn.name),
      fn.source && h("span", { class: "muted" }, fn.source),
    ),
    test?.argsError && h("p", { class: "error" }, test.argsError),
    h("label", { for: "args" }, "Arguments (JSON)"),
    editor,
    h(
      "p",
      { id: "args-help", class: "muted small" },
      test ? `The values of test ${test.name}; edit freely.` : "Example values; edit freely, or pick a test.",
    ),
    mediaPreviews(test?.file),
    h(
      "div",
      { class: "row" },
      h("label", { for: "client" }, "Client"),
      clients,
      h(
        "label",
        { class: "switch" },
        h("input", {
          type: "checkbox",
          id: "use-mock",
          role: "switch",
          checked: state.useMock,
          onchange: (event: Event) => {
            state.useMock = (event.target as HTMLInputElement).checked;
            changed("mock");
          },
        }),
        " Use the mock LLM server",
      ),
    ),
  );
}

/** Media arguments shown beside the editor: URLs and inline base64 as images, files by name. */
function mediaPreviews(testFile: string | undefined): HTMLElement | null {
  let args: unknown;
  try {
    args = JSON.parse(state.argsText);
  } catch {
    return null;
  }
  const found: HTMLElement[] = [];
  const visit = (value: unknown, path: string): void => {
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) visit(item, `${path}[${index}]`);
    } else if (typeof value === "object" && value !== null) {
      const record = value as Record<string, unknown>;
      const type = typeof record.media_type === "string" ? record.media_type : "";
      if (typeof record.url === "string" && /^https?:|^data:/.test(record.url))
        found.push(
          h(
            "figure",
            {},
            h("img", { src: record.url, alt: `media argument ${path}` }),
            h("figcaption", {}, path),
          ),
        );
      else if (typeof record.base64 === "string" && type.startsWith("image/"))
        found.push(
          h(
            "figure",
            {},
            h("img", { src: `data:${type};base64,${record.base64}`, alt: `media argument ${path}` }),
            h("figcaption", {}, path),
          ),
        );
      else if (typeof record.file === "string")
        found.push(
          h(
            "figure",
            {},
            /\.(png|jpe?g|gif|webp)$/i.test(record.file)
              ? h("img", {
                  src: `/_dev/media?path=${encodeURIComponent(projectPath(testFile, record.file))}`,
                  alt: `media argument ${path}`,
                })
              : h("code", {}, json(record.file)),
            h("figcaption", {}, `${path}: ${record.file}, sent inline`),
          ),
        );
      else for (const [key, item] of Object.entries(record)) visit(item, `${path}.${key}`);
    }
  };
  visit(args, "$");
  return found.length > 0 ? h("div", { class: "media" }, found) : null;
}

/** A test's `file` path (relative to its .baml file) as a path inside the baml_src folder. */
function projectPath(testFile: string | undefined, file: string): string {
  const folder = testFile?.includes("/") ? testFile.slice(0, testFile.lastIndexOf("/") + 1) : "";
  return `${folder}${file}`;
}
