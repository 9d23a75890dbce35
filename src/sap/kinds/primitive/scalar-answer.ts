import { workMeter } from "../../work-meter.js";

/** The longest scalar token watched for (a longer one is text, or a number no reading shows as text). */
const LONGEST = 64;
const KEYWORDS = ["true", "false", "null", "True", "False", "None"];
/** A prefix of a JSON number: `-`, `1`, `1.`, `1.5e`, `1.5e-`, … */
const NUMBER_PREFIX = /^-?(?:\d+(?:\.\d*)?(?:[eE][+-]?\d*)?)?$/;

/**
 * Whether the answer so far (or a fence's content so far) could still be one JSON scalar: a number,
 * `true`, `false`, `null` (or Python's `True`, `False`, `None`), blanks around it. Final mode reads such an answer as that scalar (`1` for
 * `int | string` is the int 1, `null` for `string?` is null), so a stream must not show it as text
 * meanwhile: the text `"nul"` would have to become null. Watched one pass over each chunk; once the
 * answer cannot be a scalar any more (`3 apples`), it never can again.
 */
export class ScalarAnswer {
  /** `blank`: nothing but blanks yet; `token`: a scalar being written; `after`: blanks after it. */
  private state: "blank" | "token" | "after" | "no" = "blank";
  private token = "";

  /** The answer may still be (the start of) one scalar, written so far. */
  get possible(): boolean {
    return this.state === "token" || this.state === "after";
  }

  push(text: string): void {
    if (this.state === "no") return;
    workMeter.steps += text.length;
    for (let index = 0; index < text.length; index++) {
      const char = text[index]!;
      const blank = /\s/.test(char);
      if (this.state === "blank") {
        if (blank) continue;
        this.state = "token";
      } else if (this.state === "after") {
        if (blank) continue;
        this.state = "no";
        return;
      }
      if (blank) {
        this.state = "after";
        continue;
      }
      this.token += char;
      if (this.token.length > LONGEST || !scalarPrefix(this.token)) {
        this.state = "no";
        this.token = "";
        return;
      }
    }
  }
}

function scalarPrefix(token: string): boolean {
  return NUMBER_PREFIX.test(token) || KEYWORDS.some((keyword) => keyword.startsWith(token));
}
