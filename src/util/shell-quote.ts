/** `text` as one POSIX shell word, in single quotes (a `'` inside becomes `'\''`). */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
