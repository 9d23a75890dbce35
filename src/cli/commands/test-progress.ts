import type { TestCaseResult, TestStatus } from "./run-test-case.js";
import type { TestCase } from "./test-cases.js";

const LABELS: Record<TestStatus, string> = {
  passed: "PASS",
  failed: "FAIL",
  error: "ERROR",
  cancelled: "CANCEL",
};

/** `PASS  Fn::Test  (1.2s)` plus the reason when it did not pass. */
export function resultLine(result: TestCaseResult): string {
  const reason = result.reason ? `  ${result.reason}` : "";
  return `${LABELS[result.status].padEnd(6)} ${result.testCase.id}  (${seconds(result.durationMs)})${reason}`;
}

export function seconds(milliseconds: number): string {
  return `${(milliseconds / 1000).toFixed(1)}s`;
}

/**
 * The live display while tests run. On a terminal: each finished test prints a result line, and one status
 * line below them (rewritten in place) shows the counts and the tests still running. Elsewhere (CI logs,
 * pipes): plain result lines only, one per finished test, nothing rewritten.
 */
export class TestProgress {
  readonly #write: (text: string) => void;
  readonly #live: boolean;
  readonly #total: number;
  readonly #running = new Map<string, number>();
  readonly #counts: Record<TestStatus, number> = { passed: 0, failed: 0, error: 0, cancelled: 0 };
  #statusShown = false;

  constructor(write: (text: string) => void, total: number, live: boolean) {
    this.#write = write;
    this.#total = total;
    this.#live = live;
  }

  started(testCase: TestCase): void {
    this.#running.set(testCase.id, performance.now());
    this.#drawStatus();
  }

  finished(result: TestCaseResult): void {
    this.#running.delete(result.testCase.id);
    this.#counts[result.status]++;
    this.#clearStatus();
    this.#write(`${resultLine(result)}\n`);
    this.#drawStatus();
  }

  /** Removes the status line before the summary is printed. */
  done(): void {
    this.#clearStatus();
  }

  #drawStatus(): void {
    if (!this.#live) return;
    const finished = Object.values(this.#counts).reduce((sum, count) => sum + count, 0);
    const running = [...this.#running.keys()];
    const names = running.slice(0, 3).join(", ") + (running.length > 3 ? `, +${running.length - 3}` : "");
    const text =
      `${finished}/${this.#total} done · ${this.#counts.passed} passed · ` +
      `${this.#counts.failed + this.#counts.error} failed · running: ${names || "-"}`;
    this.#clearStatus();
    this.#write(text.length > 118 ? `${text.slice(0, 117)}…` : text);
    this.#statusShown = true;
  }

  #clearStatus(): void {
    if (!this.#live || !this.#statusShown) return;
    this.#write("\r\u001b[2K");
    this.#statusShown = false;
  }
}
