import type { Ir } from "../ir/index.js";
import type { MediaUrlPolicy, ProviderExtension, ReadTextFile } from "../llm/index.js";
import { evaluateConstraint } from "../prompt/index.js";
import { type RuntimeOptions, SaplingRuntime } from "../runtime/index.js";
import { type DevMock, type DevMockAnswer, mockEnvironment, mockFetch } from "./mock-fetch.js";

/**
 * The runtimes `sapling dev` runs functions with: the real one (the developer's environment and keys),
 * one per mock run (requests to the mock LLM server, stand-in keys), and the one that builds the preview's
 * cURL (real variables over stand-ins, so the request shows even without keys; every key is masked).
 */
export class DevRuntimes {
  #runCount = 0;

  /** What every runtime of the page shares: provider adapters, the media URL policy, the constraint evaluator. */
  #shared(): Pick<RuntimeOptions, "providers" | "mediaUrls" | "constraintEvaluator"> {
    return {
      // The parse explorer and recorded runs parse `@check`/`@assert` types without a call.
      constraintEvaluator: evaluateConstraint,
      ...(this.options.providers === undefined ? {} : { providers: this.options.providers }),
      ...(this.options.mediaUrls === undefined ? {} : { mediaUrls: this.options.mediaUrls }),
    };
  }

  constructor(
    private readonly options: {
      mock: DevMock;
      env: Record<string, string | undefined>;
      readTextFile?: ReadTextFile;
      providers?: readonly ProviderExtension[];
      mediaUrls?: MediaUrlPolicy;
    },
  ) {}

  real(ir: Ir): SaplingRuntime {
    return SaplingRuntime.fromIr(ir, {
      env: this.options.env,
      ...(this.options.readTextFile ? { readTextFile: this.options.readTextFile } : {}),
      ...this.#shared(),
    });
  }

  preview(ir: Ir): SaplingRuntime {
    const defined = Object.entries(this.options.env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    );
    return SaplingRuntime.fromIr(ir, {
      env: { ...mockEnvironment(ir), ...Object.fromEntries(defined) },
      readTextFile: null,
      ...this.#shared(),
    });
  }

  /** The runtime of one run: the real one, or one whose requests reach the mock with these answers. */
  forRun(
    ir: Ir,
    mockAnswers: readonly DevMockAnswer[] | undefined,
  ): { runtime: SaplingRuntime; release: () => void } {
    if (mockAnswers === undefined) return { runtime: this.real(ir), release: () => {} };
    const mock = this.options.mock;
    const runId = `run-${++this.#runCount}`;
    mock.queue(runId, mockAnswers);
    return {
      runtime: SaplingRuntime.fromIr(ir, {
        env: mockEnvironment(ir),
        fetch: mockFetch(mock, runId),
        readTextFile: null,
        ...this.#shared(),
      }),
      release: () => mock.forget(runId),
    };
  }
}
