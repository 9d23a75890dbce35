/** A tiny element builder: the page's whole rendering layer (no framework; docs/decisions/0013-dev-page-front-end.md). */

type Child = Node | string | number | null | undefined | false | readonly Child[];
type Attributes = Record<string, string | number | boolean | null | undefined | EventListener>;

/** `h("button", { onclick, "aria-pressed": "true" }, "Run")`: attributes, `on…` listeners, children. */
export function h<Tag extends keyof HTMLElementTagNameMap>(
  tag: Tag,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[Tag] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") element.addEventListener(name.slice(2), value);
    else if (name === "value" && "value" in element) (element as HTMLInputElement).value = String(value);
    else if (name === "checked" && "checked" in element)
      (element as HTMLInputElement).checked = value === true;
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  append(element, children);
  return element;
}

function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else
      parent.appendChild(
        typeof child === "object" ? (child as Node) : document.createTextNode(String(child)),
      );
  }
}

/** Replaces the children of `parent`. */
export function render(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/** Pretty JSON for the page (`undefined` shows as nothing). */
export function json(value: unknown): string {
  return value === undefined ? "" : JSON.stringify(value, null, 2);
}

/** A checkbox inside its label (`class="check"`): `onChange` hears whether it is now checked. */
export function checkbox(id: string, checked: boolean, onChange: (checked: boolean) => void, text: string) {
  return h(
    "label",
    { class: "check" },
    h("input", {
      type: "checkbox",
      id,
      checked,
      onchange: (event: Event) => onChange((event.target as HTMLInputElement).checked),
    }),
    ` ${text}`,
  );
}
