/**
 * A small YAML writer for `format(type="yaml")` in serde_yaml's style (what BAML uses): block style, a
 * trailing newline, strings single-quoted only when plain YAML would misread them.
 */
export function toYaml(value: unknown): string {
  return `${write(value, 0).replace(/^\n/, "").replace(/^ /, "")}\n`;
}

function write(value: unknown, depth: number): string {
  const pad = "  ".repeat(depth);
  if (Array.isArray(value)) {
    if (value.length === 0) return " []";
    return value
      .map((item) => {
        const text = write(item, depth + 1);
        return `\n${pad}-${text.startsWith("\n") ? text.replace(/^\n\s*/, " ") : text}`;
      })
      .join("");
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    if (entries.length === 0) return " {}";
    return entries.map(([key, item]) => `\n${pad}${scalar(key)}:${write(item, depth + 1)}`).join("");
  }
  return ` ${scalar(value)}`;
}

function scalar(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value !== "string") return String(value);
  const plain =
    value !== "" &&
    !/^[\s\-?:,[\]{}#&*!|>'"%@`]/.test(value) &&
    !/[:#]\s|\s$|\n/.test(value) &&
    !/^(true|false|null|yes|no|on|off|~|[-+]?\d[\d_.eE+-]*)$/i.test(value);
  if (plain) return value;
  return /[\n\t\\]/.test(value) ? JSON.stringify(value) : `'${value.replaceAll("'", "''")}'`;
}
