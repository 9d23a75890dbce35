import { describe, expect, it } from "vitest";
import { LinearRegex, MAX_REGEX_PROGRAM, RegexPatternError } from "./linear-regex.js";

const matches = (pattern: string, text: string): boolean => LinearRegex.compile(pattern).test(text);

describe("LinearRegex: Rust regex syntax, matched anywhere", () => {
  it.each([
    ["abc", "xxabcxx", true],
    ["^abc", "xxabc", false],
    ["abc$", "abcxx", false],
    ["^a.c$", "abc", true],
    ["^a.c$", "a\nc", false],
    ["(?s)^a.c$", "a\nc", true],
    ["^b$", "a\nb\nc", false],
    ["(?m)^b$", "a\nb\nc", true],
    ["colou?r", "color", true],
    ["^(ab|cd)+$", "abcdab", true],
    ["^(ab|cd)+$", "abca", false],
    ["^a{2,3}$", "aaa", true],
    ["^a{2,3}$", "aaaa", false],
    ["^a{2}$", "aa", true],
    ["^a{2,}$", "aaaaaa", true],
    ["^[a-c]+$", "abcab", true],
    ["^[^a-c]+$", "xyz", true],
    ["^[^a-c]+$", "xaz", false],
    ["[]a]", "]", true],
    ["^[a-]+$", "a-a", true],
    ["^[\\d.]+$", "3.14", true],
    ["^[[:alpha:]]+$", "Hello", true],
    ["^[[:^digit:]]+$", "ab1", false],
    ["(?i)^hello$", "HeLLo", true],
    ["^(?i:h)ello$", "Hello", true],
    ["^(?i:h)ello$", "HELLO", false],
    ["(?i)^[a-z]+$", "ÀB", false],
    ["(?i)^é$", "É", true],
    ["^\\d+$", "١٢٣", true],
    ["^\\w+$", "naïve_ünïcode", true],
    ["\\bcat\\b", "a cat sat", true],
    ["\\bcat\\b", "concatenate", false],
    ["\\Bcat\\B", "concatenate", true],
    ["^\\s+$", "\u00a0\t ", true],
    ["^\\p{Greek}+$", "αβγ", true],
    ["^\\pL+$", "abc", true],
    ["^\\P{L}+$", "123", true],
    ["^\\x41\\u{1F600}$", "A😀", true],
    ["^.$", "😀", true],
    ["^\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\^\\$\\\\$", ".*+?()[]{}|^$\\", true],
    ["(?P<year>\\d{4})-(?<month>\\d{2})", "on 2024-05-01", true],
    ["(?x) a b  # spaces and comments are not the pattern\n c", "abc", true],
    ["a*", "", true],
    ["^(a*)*$", "aaa", true],
    ["^(|a)+$", "aaa", true],
    ["^[a-z]+@[a-z]+\\.[a-z]{2,}$", "ada@example.org", true],
    ["\\Aab\\z", "ab", true],
    ["a+?b", "aaab", true],
  ])("%s against %j is %s", (pattern, text, expected) => {
    expect(matches(pattern, text)).toBe(expected);
  });

  it("matches a pattern that backtracks for minutes in JavaScript in work linear in the text", () => {
    // In JavaScript's RegExp `^(a+)+$` against 31 a's and a `!` took 45 s; here the work is bounded by
    // (text length + 1) × program size, and grows linearly.
    for (const pattern of ["^(a+)+$", "^(a|a)*$", "^(a|aa)+$", "(x+x+)+y", "^(\\w+\\s?)*$"]) {
      const regex = LinearRegex.compile(pattern);
      const short = regex.run(`${"a".repeat(31)}!`);
      const long = regex.run(`${"a".repeat(3100)}!`);
      expect(short.matched).toBe(false);
      expect(long.matched).toBe(false);
      expect(long.steps).toBeLessThanOrEqual((3102 + 1) * regex.size);
      expect(long.steps).toBeLessThanOrEqual(short.steps * 101);
    }
  });

  it.each([
    ["(a)\\1", "Backreferences (\\1) are not supported", 4],
    ["(?=a)", "Lookaround", 2],
    ["(?<!a)b", "Lookaround", 2],
    ["a{3", "counted repetition", 1],
    ["*a", "repeats nothing", 0],
    ["(ab", "not closed with `)`", 3],
    ["ab)", "`)` has no `(`", 2],
    ["[ab", "not closed with `]`", 0],
    ["[z-a]", "ends reversed", 4],
    ["a{5,2}", "bounds reversed", 1],
    ["a{1001}", "at most 1000", 1],
    ["\\q", "Unknown escape \\q", 1],
    ["(?y)", "Unknown flag `y`", 2],
    ["\\p{NoSuchScript}", "Unknown Unicode property", 16],
    ["^*", "cannot be repeated", 1],
  ])("refuses %s, saying why and where", (pattern, message, offset) => {
    const failure = (() => {
      try {
        LinearRegex.compile(pattern);
      } catch (error) {
        return error;
      }
    })();
    expect(failure).toBeInstanceOf(RegexPatternError);
    expect((failure as RegexPatternError).message).toContain(message);
    expect((failure as RegexPatternError).offset).toBe(offset);
  });

  it("refuses a pattern whose counted repetitions write out too large a program", () => {
    expect(() => LinearRegex.compile("(a{1000}){1000}")).toThrow(`over ${MAX_REGEX_PROGRAM} steps`);
    expect(LinearRegex.compile("\\w{1,100}").size).toBeLessThan(MAX_REGEX_PROGRAM);
  });
});
