import { hasErrorMark, markError } from "../../util/index.js";
/**
 * The regular expressions of `regex_match`, matched in time linear in the text: a pattern is compiled to a
 * Thompson automaton and run as a Pike VM (every live state advances together, one step per character), so
 * no pattern and no text can make it backtrack. JavaScript's `RegExp` backtracks: `^(a+)+$` against 31
 * characters took 45 s, and in an `@assert` the text is the model's answer. Cost: text length × program
 * size, and the program is capped (docs/decisions/0023-template-limits.md says why this and not a timeout).
 *
 * The syntax is that of Rust's `regex` crate, which BAML uses: what it has no linear-time answer for
 * (backreferences, lookaround) is refused there too, here with an error saying so. `\d`, `\w`, `\s` and
 * `\b` are Unicode-aware as in Rust. Long for the reason any small regex engine is: a parser, a compiler
 * and a matcher that only make sense together.
 */

/** A pattern `regex_match` cannot run; `offset` is where in the pattern the problem is. */
export class RegexPatternError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = "RegexPatternError";
    markError(this, "RegexPatternError");
  }

  /** `instanceof` that also works across two copies of the package. */
  static isInstance(value: unknown): value is RegexPatternError {
    return hasErrorMark(value, "RegexPatternError");
  }
}

/** Instructions beyond this are refused: the matcher's work per character grows with the program. */
export const MAX_REGEX_PROGRAM = 10_000;

type CharTest = (codePoint: number) => boolean;
type Assertion = "start" | "end" | "line-start" | "line-end" | "word-boundary" | "not-word-boundary";

type Node =
  | { kind: "char"; test: CharTest }
  | { kind: "concat"; items: Node[] }
  | { kind: "alternation"; options: Node[] }
  | { kind: "repeat"; node: Node; min: number; max: number }
  | { kind: "assert"; which: Assertion };

type Instruction =
  | { op: "char"; test: CharTest }
  | { op: "split"; first: number; second: number }
  | { op: "jump"; to: number }
  | { op: "assert"; which: Assertion }
  | { op: "match" };

interface Flags {
  ignoreCase: boolean;
  multiLine: boolean;
  dotAll: boolean;
  extended: boolean;
}

/** A compiled pattern; `test(text)` says whether it matches anywhere in `text` (Rust's `is_match`). */
export class LinearRegex {
  private constructor(private readonly program: Instruction[]) {}

  static compile(pattern: string): LinearRegex {
    const parser = new PatternParser(pattern);
    const node = parser.parse();
    const program: Instruction[] = [];
    emit(node, program);
    program.push({ op: "match" });
    return new LinearRegex(program);
  }

  test(text: string): boolean {
    return this.run(text).matched;
  }

  /** The program's size, in instructions. */
  get size(): number {
    return this.program.length;
  }

  /**
   * `test`, also counting the states visited: at most (text length + 1) × program size, whatever the
   * pattern (tests check that bound instead of timing the match).
   */
  run(text: string): { matched: boolean; steps: number } {
    this.steps = 0;
    const matched = this.search(text);
    return { matched, steps: this.steps };
  }

  private steps = 0;

  private search(text: string): boolean {
    const characters = Array.from(text, (character) => character.codePointAt(0) as number);
    const program = this.program;
    // seen[pc] = the position whose state list holds pc: each state is added once per position.
    const seen = new Int32Array(program.length).fill(-1);
    let current: number[] = [];
    const pending: number[] = [];
    for (let position = 0; position <= characters.length; position++) {
      // A thread starting here: the search is unanchored unless the pattern asserts otherwise.
      if (this.addThread(current, 0, position, characters, seen, pending)) return true;
      if (position === characters.length) break;
      const next: number[] = [];
      const character = characters[position] as number;
      for (const pc of current) {
        const instruction = program[pc] as Instruction;
        if (instruction.op === "char" && instruction.test(character)) {
          if (this.addThread(next, pc + 1, position + 1, characters, seen, pending)) return true;
        }
      }
      current = next;
    }
    return false;
  }

  /** Adds `start` and every state reachable from it without reading a character; true on a match. */
  // biome-ignore lint/complexity/useMaxParams: runs once per state per character; an options object would allocate in the matcher's loop.
  private addThread(
    list: number[],
    start: number,
    position: number,
    characters: readonly number[],
    seen: Int32Array,
    pending: number[],
  ): boolean {
    pending.push(start);
    while (pending.length > 0) {
      const pc = pending.pop() as number;
      if (seen[pc] === position) continue;
      seen[pc] = position;
      this.steps++;
      const instruction = this.program[pc] as Instruction;
      switch (instruction.op) {
        case "match":
          pending.length = 0;
          return true;
        case "char":
          list.push(pc);
          break;
        case "jump":
          pending.push(instruction.to);
          break;
        case "split":
          pending.push(instruction.second, instruction.first);
          break;
        case "assert":
          if (holds(instruction.which, characters, position)) pending.push(pc + 1);
          break;
      }
    }
    return false;
  }
}

function holds(which: Assertion, characters: readonly number[], position: number): boolean {
  const before = characters[position - 1];
  const after = characters[position];
  switch (which) {
    case "start":
      return position === 0;
    case "end":
      return position === characters.length;
    case "line-start":
      return before === undefined || before === NEWLINE;
    case "line-end":
      return after === undefined || after === NEWLINE;
    case "word-boundary":
    case "not-word-boundary": {
      const boundary = (before !== undefined && isWord(before)) !== (after !== undefined && isWord(after));
      return which === "word-boundary" ? boundary : !boundary;
    }
  }
}

function emit(node: Node, program: Instruction[]): void {
  if (program.length > MAX_REGEX_PROGRAM) {
    throw new RegexPatternError(
      `The pattern is too large once its counted repetitions are written out (over ${MAX_REGEX_PROGRAM} ` +
        "steps); use smaller counts such as {1,100}, or * and +.",
      0,
    );
  }
  switch (node.kind) {
    case "char":
      program.push({ op: "char", test: node.test });
      return;
    case "assert":
      program.push({ op: "assert", which: node.which });
      return;
    case "concat":
      for (const item of node.items) emit(item, program);
      return;
    case "alternation": {
      // split(first, next split) … each option jumps to the end.
      const jumps: { op: "jump"; to: number }[] = [];
      node.options.forEach((option, index) => {
        if (index < node.options.length - 1) {
          const split: Instruction = { op: "split", first: program.length + 1, second: 0 };
          program.push(split);
          emit(option, program);
          const jump = { op: "jump" as const, to: 0 };
          jumps.push(jump);
          program.push(jump);
          split.second = program.length;
        } else emit(option, program);
      });
      for (const jump of jumps) jump.to = program.length;
      return;
    }
    case "repeat": {
      for (let count = 0; count < node.min; count++) emit(node.node, program);
      if (node.max === Number.POSITIVE_INFINITY) {
        const split: Instruction = { op: "split", first: program.length + 1, second: 0 };
        const loop = program.length;
        program.push(split);
        emit(node.node, program);
        program.push({ op: "jump", to: loop });
        split.second = program.length;
        return;
      }
      const splits: Extract<Instruction, { op: "split" }>[] = [];
      for (let count = node.min; count < node.max; count++) {
        const split: Extract<Instruction, { op: "split" }> = {
          op: "split",
          first: program.length + 1,
          second: 0,
        };
        splits.push(split);
        program.push(split);
        emit(node.node, program);
      }
      for (const split of splits) split.second = program.length;
      return;
    }
  }
}

const NEWLINE = 0x0a;
const WORD = /[\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control}]/u;
const DIGIT = /\p{Nd}/u;
const SPACE = /\p{White_Space}/u;
const isWord: CharTest = (codePoint) => WORD.test(String.fromCodePoint(codePoint));
const isDigit: CharTest = (codePoint) => DIGIT.test(String.fromCodePoint(codePoint));
const isSpace: CharTest = (codePoint) => SPACE.test(String.fromCodePoint(codePoint));
const not =
  (test: CharTest): CharTest =>
  (codePoint) =>
    !test(codePoint);

/** `\A`, `\z`, `\b`, `\B`: the escapes that match a position, not a character. */
const ESCAPED_ASSERTIONS: Readonly<Record<string, Assertion>> = {
  A: "start",
  z: "end",
  b: "word-boundary",
  B: "not-word-boundary",
};

const POSIX_CLASSES: Readonly<Record<string, CharTest>> = {
  alnum: (code) => /[0-9A-Za-z]/.test(String.fromCodePoint(code)),
  alpha: (code) => /[A-Za-z]/.test(String.fromCodePoint(code)),
  ascii: (code) => code <= 0x7f,
  blank: (code) => code === 0x20 || code === 0x09,
  cntrl: (code) => code < 0x20 || code === 0x7f,
  digit: (code) => code >= 0x30 && code <= 0x39,
  graph: (code) => code > 0x20 && code < 0x7f,
  lower: (code) => code >= 0x61 && code <= 0x7a,
  print: (code) => code >= 0x20 && code < 0x7f,
  punct: (code) => /[!-/:-@[-`{-~]/.test(String.fromCodePoint(code)),
  space: (code) => /[\t\n\v\f\r ]/.test(String.fromCodePoint(code)),
  upper: (code) => code >= 0x41 && code <= 0x5a,
  word: (code) => /\w/.test(String.fromCodePoint(code)),
  xdigit: (code) => /[0-9A-Fa-f]/.test(String.fromCodePoint(code)),
};

/** Case-insensitive: a character matches when it, its lower case or its upper case does. */
function foldCase(test: CharTest): CharTest {
  return (codePoint) => {
    if (test(codePoint)) return true;
    const character = String.fromCodePoint(codePoint);
    const lower = character.toLowerCase();
    const upper = character.toUpperCase();
    return (
      (lower.length > 0 && test(lower.codePointAt(0) as number)) ||
      (upper.length > 0 && test(upper.codePointAt(0) as number))
    );
  };
}

/** Recursive descent over the pattern's code points; flags are scoped to their group, as in Rust. */
class PatternParser {
  private readonly characters: string[];
  private position = 0;

  constructor(pattern: string) {
    this.characters = Array.from(pattern);
  }

  parse(): Node {
    const node = this.alternation({ ignoreCase: false, multiLine: false, dotAll: false, extended: false });
    if (this.position < this.characters.length) this.fail("Unopened group: `)` has no `(`.");
    return node;
  }

  private fail(message: string): never {
    throw new RegexPatternError(message, this.position);
  }

  private peek(offset = 0): string | undefined {
    return this.characters[this.position + offset];
  }

  private alternation(flags: Flags): Node {
    const options: Node[] = [this.sequence(flags)];
    while (this.peek() === "|") {
      this.position++;
      options.push(this.sequence(flags));
    }
    return options.length === 1 ? (options[0] as Node) : { kind: "alternation", options };
  }

  /** Items up to `|`, `)` or the end. A `(?flags)` group changes `flags` for the rest of the sequence. */
  private sequence(outer: Flags): Node {
    const flags = { ...outer };
    const items: Node[] = [];
    while (this.position < this.characters.length) {
      const character = this.peek() as string;
      if (character === "|" || character === ")") break;
      if (flags.extended && this.skipExtended()) continue;
      const atom = this.atom(flags);
      if (atom === undefined) continue;
      items.push(this.quantified(atom, flags));
    }
    return items.length === 1 ? (items[0] as Node) : { kind: "concat", items };
  }

  /** In `(?x)` mode whitespace and `#` comments are not part of the pattern. */
  private skipExtended(): boolean {
    const character = this.peek();
    if (character !== undefined && /\s/.test(character)) {
      this.position++;
      return true;
    }
    if (character === "#") {
      while (this.position < this.characters.length && this.peek() !== "\n") this.position++;
      return true;
    }
    return false;
  }

  private quantified(atom: Node, flags: Flags): Node {
    let node = atom;
    while (true) {
      if (flags.extended) while (this.skipExtended()) {}
      const character = this.peek();
      let min: number;
      let max: number;
      if (character === "*") [min, max] = [0, Number.POSITIVE_INFINITY];
      else if (character === "+") [min, max] = [1, Number.POSITIVE_INFINITY];
      else if (character === "?") [min, max] = [0, 1];
      else if (character === "{") [min, max] = this.counted();
      else return node;
      if (node.kind === "assert") this.fail("An anchor or boundary (^, $, \\b) cannot be repeated.");
      if (character !== "{") this.position++;
      // A lazy `?` changes which match is found, not whether one is: the same for `is_match`.
      if (this.peek() === "?") this.position++;
      node = { kind: "repeat", node, min, max };
    }
  }

  /** `{n}`, `{n,}` or `{n,m}`, the position just after it. */
  private counted(): [number, number] {
    const start = this.position;
    const match = /^\{\s*(\d+)\s*(?:(,)\s*(\d*)\s*)?\}/.exec(
      this.characters.slice(start, start + 32).join(""),
    );
    if (!match)
      this.fail("A `{` starts a counted repetition like {2}, {2,} or {2,5}; write \\{ for the character.");
    const min = Number(match[1]);
    const max = match[2] === undefined ? min : match[3] === "" ? Number.POSITIVE_INFINITY : Number(match[3]);
    if (max < min) this.fail(`The repetition {${min},${max}} has its bounds reversed.`);
    if (min > 1000 || (max !== Number.POSITIVE_INFINITY && max > 1000))
      this.fail("A counted repetition may be at most 1000.");
    this.position += Array.from(match[0]).length;
    return [min, max];
  }

  /** One atom, or `undefined` for a `(?flags)` group, which only changes `flags`. */
  private atom(flags: Flags): Node | undefined {
    const character = this.peek() as string;
    this.position++;
    switch (character) {
      case "(":
        return this.group(flags);
      case "[":
        return this.charClass(flags);
      case ".":
        return { kind: "char", test: flags.dotAll ? () => true : (code) => code !== NEWLINE };
      case "^":
        return { kind: "assert", which: flags.multiLine ? "line-start" : "start" };
      case "$":
        return { kind: "assert", which: flags.multiLine ? "line-end" : "end" };
      case "\\":
        return this.escape(flags);
      case "*":
      case "+":
      case "?":
      case "{":
        this.position--;
        return this.fail(`\`${character}\` repeats nothing here; write \\${character} for the character.`);
      default:
        return this.literal(character.codePointAt(0) as number, flags);
    }
  }

  private literal(codePoint: number, flags: Flags): Node {
    const test: CharTest = (code) => code === codePoint;
    return { kind: "char", test: flags.ignoreCase ? foldCase(test) : test };
  }

  private group(flags: Flags): Node | undefined {
    if (this.peek() !== "?") return this.closeGroup(this.alternation(flags));
    this.position++;
    const marker = this.peek();
    if (
      marker === "=" ||
      marker === "!" ||
      (marker === "<" && (this.peek(1) === "=" || this.peek(1) === "!"))
    )
      this.fail(
        "Lookaround ((?=…), (?!…), (?<=…), (?<!…)) is not supported: it has no linear-time match, and BAML's " +
          "regex engine (Rust's regex crate) refuses it too.",
      );
    if (marker === "P" || marker === "<") {
      // A named group: (?P<name>…) or (?<name>…); names are not used by `is_match`.
      if (marker === "P") this.position++;
      if (this.peek() !== "<") this.fail("A named group is written (?P<name>…) or (?<name>…).");
      while (this.position < this.characters.length && this.peek() !== ">") this.position++;
      if (this.peek() !== ">") this.fail("A group name is not closed with `>`.");
      this.position++;
      return this.closeGroup(this.alternation(flags));
    }
    const scoped = { ...flags };
    let enable = true;
    while (this.position < this.characters.length) {
      const flag = this.peek() as string;
      this.position++;
      if (flag === ":") return this.closeGroup(this.alternation(scoped));
      if (flag === ")") {
        // `(?i)`: the flags hold for the rest of the enclosing group.
        Object.assign(flags, scoped);
        return undefined;
      }
      if (flag === "-") enable = false;
      else if (flag === "i") scoped.ignoreCase = enable;
      else if (flag === "m") scoped.multiLine = enable;
      else if (flag === "s") scoped.dotAll = enable;
      else if (flag === "x") scoped.extended = enable;
      else if (flag === "U" || flag === "u") continue;
      else {
        this.position--;
        this.fail(`Unknown flag \`${flag}\` in a (?…) group; the flags are i, m, s, x, U and u.`);
      }
    }
    return this.fail("A (?…) group is not closed.");
  }

  private closeGroup(node: Node): Node {
    if (this.peek() !== ")") this.fail("A group is not closed with `)`.");
    this.position++;
    return node;
  }

  private escape(flags: Flags): Node {
    const character = this.peek();
    if (character === undefined) this.fail("The pattern ends with a lone backslash.");
    const assertion = ESCAPED_ASSERTIONS[character as string];
    if (assertion !== undefined && Object.hasOwn(ESCAPED_ASSERTIONS, character as string)) {
      this.position++;
      return { kind: "assert", which: assertion };
    }
    const test = this.escapedCharacter();
    return { kind: "char", test: flags.ignoreCase ? foldCase(test) : test };
  }

  /** The escape after a backslash that stands for characters (in or out of a class), the position after it. */
  private escapedCharacter(): CharTest {
    const character = this.peek() as string;
    this.position++;
    switch (character) {
      case "d":
        return isDigit;
      case "D":
        return not(isDigit);
      case "w":
        return isWord;
      case "W":
        return not(isWord);
      case "s":
        return isSpace;
      case "S":
        return not(isSpace);
      case "n":
        return (code) => code === NEWLINE;
      case "t":
        return (code) => code === 0x09;
      case "r":
        return (code) => code === 0x0d;
      case "f":
        return (code) => code === 0x0c;
      case "v":
        return (code) => code === 0x0b;
      case "a":
        return (code) => code === 0x07;
      case "x":
      case "u":
      case "U": {
        const codePoint = this.hexEscape(character);
        return (code) => code === codePoint;
      }
      case "p":
      case "P": {
        const property = this.unicodeProperty();
        return character === "p" ? property : not(property);
      }
    }
    if (/[0-9]/.test(character)) {
      this.position--;
      this.fail(
        `Backreferences (\\${character}) are not supported: they have no linear-time match, and BAML's regex ` +
          "engine (Rust's regex crate) refuses them too.",
      );
    }
    if (/[\p{L}\p{N}]/u.test(character)) {
      this.position--;
      this.fail(`Unknown escape \\${character}.`);
    }
    const codePoint = character.codePointAt(0) as number;
    return (code) => code === codePoint;
  }

  /** `\x7F`, `\x{10FFFF}`, `\u00E9`, `\u{E9}`, `\U0001F600`: the code point. */
  private hexEscape(kind: string): number {
    let digits: string;
    if (this.peek() === "{") {
      const end = this.characters.indexOf("}", this.position);
      if (end < 0) this.fail(`\\${kind}{… is not closed with \`}\`.`);
      digits = this.characters.slice(this.position + 1, end).join("");
      this.position = end + 1;
    } else {
      const length = kind === "x" ? 2 : kind === "u" ? 4 : 8;
      digits = this.characters.slice(this.position, this.position + length).join("");
      this.position += length;
    }
    const codePoint = /^[0-9A-Fa-f]{1,8}$/.test(digits) ? Number.parseInt(digits, 16) : Number.NaN;
    if (!(codePoint <= 0x10ffff)) this.fail(`\\${kind}${digits} is not a Unicode code point in hexadecimal.`);
    return codePoint;
  }

  /** `\pL`, `\p{Greek}`, `\p{Lu}`: a Unicode property, tested one character at a time with JavaScript's. */
  private unicodeProperty(): CharTest {
    let name: string;
    if (this.peek() === "{") {
      const end = this.characters.indexOf("}", this.position);
      if (end < 0) this.fail("\\p{… is not closed with `}`.");
      name = this.characters.slice(this.position + 1, end).join("");
      this.position = end + 1;
    } else {
      name = this.peek() ?? "";
      this.position++;
    }
    let expression: RegExp;
    try {
      // One character against one property: no backtracking is possible.
      expression = new RegExp(`^\\p{${name}}$`, "u");
    } catch {
      const script = /^[A-Za-z_]+$/.test(name) ? safeRegExp(`^\\p{Script=${name}}$`) : undefined;
      if (!script) this.fail(`Unknown Unicode property \\p{${name}}.`);
      expression = script;
    }
    return (code) => expression.test(String.fromCodePoint(code));
  }

  /** `[…]`, the position after its `]`. */
  private charClass(flags: Flags): Node {
    const start = this.position - 1;
    const negated = this.peek() === "^";
    if (negated) this.position++;
    const parts: CharTest[] = [];
    let first = true;
    while (true) {
      const character = this.peek();
      if (character === undefined) {
        this.position = start;
        this.fail("A character class `[` is not closed with `]`.");
      }
      if (character === "]" && !first) {
        this.position++;
        break;
      }
      first = false;
      if (character === "[") {
        const posix = /^\[:(\^?)([a-z]+):\]/.exec(
          this.characters.slice(this.position, this.position + 12).join(""),
        );
        const test = posix ? POSIX_CLASSES[posix[2] as string] : undefined;
        if (!posix || !test || !Object.hasOwn(POSIX_CLASSES, posix[2] as string))
          this.fail(
            "Nested classes are not supported; write \\[ for the character, or [:alpha:] and the like.",
          );
        this.position += posix[0].length;
        parts.push(posix[1] === "^" ? not(test) : test);
        continue;
      }
      if (character === "&" && this.peek(1) === "&")
        this.fail("Class intersection (&&) is not supported; write \\& for the character.");
      const low = this.classMember();
      if (this.peek() === "-" && this.peek(1) !== "]" && this.peek(1) !== undefined) {
        this.position++;
        const high = this.classMember();
        if (typeof low !== "number" || typeof high !== "number")
          this.fail("A range in a class goes from one character to another, like a-z.");
        if (high < low) this.fail("A range in a class has its ends reversed.");
        parts.push((code) => code >= low && code <= high);
      } else parts.push(typeof low === "number" ? (code) => code === low : low);
    }
    const member: CharTest = (code) => parts.some((part) => part(code));
    const cased = flags.ignoreCase ? foldCase(member) : member;
    return { kind: "char", test: negated ? not(cased) : cased };
  }

  /** One class member: a code point (which may start a range), or a class escape such as `\d`. */
  private classMember(): number | CharTest {
    const character = this.peek() as string;
    this.position++;
    if (character !== "\\") return character.codePointAt(0) as number;
    const escaped = this.peek();
    if (escaped !== undefined && !/[\p{L}\p{N}]/u.test(escaped)) {
      this.position++;
      return escaped.codePointAt(0) as number;
    }
    if (escaped === "n") {
      this.position++;
      return NEWLINE;
    }
    if (escaped === "t") {
      this.position++;
      return 0x09;
    }
    if (escaped === "x" || escaped === "u" || escaped === "U") {
      this.position++;
      return this.hexEscape(escaped);
    }
    return this.escapedCharacter();
  }
}

function safeRegExp(source: string): RegExp | undefined {
  try {
    return new RegExp(source, "u");
  } catch {
    return undefined;
  }
}
