import type {
  DevCallRequest,
  DevErrorBody,
  DevEvalRequest,
  DevEvalResult,
  DevParseRequest,
  DevParseResult,
  DevProjectView,
  DevPromptPreview,
  DevReplayRequest,
  DevReplayResult,
  DevRunEvents,
  DevRunRequest,
  DevTestResult,
  DevTestsRequest,
} from "../../src/dev/dev-api.js";

/** A refusal of a dev route, with the server's code (`CONFIRM_REQUIRED`, `TEMPLATE_ERROR`, …). */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function post<Result>(path: string, body: unknown): Promise<Result> {
  const response = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const value = (await response.json()) as Result | DevErrorBody;
  if (!response.ok) {
    const error = (value as DevErrorBody).error;
    throw new ApiError(error?.code ?? "HTTP_ERROR", error?.message ?? `HTTP ${response.status}`);
  }
  return value as Result;
}

export async function fetchProject(): Promise<DevProjectView> {
  const response = await fetch("/_dev/project");
  return (await response.json()) as DevProjectView;
}

export const previewPrompt = (request: DevCallRequest) => post<DevPromptPreview>("/_dev/prompt", request);
export const parseAnswer = (request: DevParseRequest) => post<DevParseResult>("/_dev/parse", request);
export const replayAnswer = (request: DevReplayRequest) => post<DevReplayResult>("/_dev/replay", request);
export const runTests = (request: DevTestsRequest) =>
  post<{ results: DevTestResult[] }>("/_dev/tests", request);

export const runEval = (request: DevEvalRequest) => post<DevEvalResult>("/_dev/eval", request);

type RunListener = { [Name in keyof DevRunEvents]: (data: DevRunEvents[Name]) => void };

/** Starts a run and calls `on.partial` per event, then `on.final` or `on.error`; abort with `signal`. */
export async function startRun(request: DevRunRequest, on: RunListener, signal: AbortSignal): Promise<void> {
  const response = await fetch("/_dev/run", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(request),
    signal,
  });
  if (!response.ok || !response.body) {
    const error = ((await response.json()) as DevErrorBody).error;
    throw new ApiError(error.code, error.message);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += value;
    for (let end = buffer.indexOf("\n\n"); end !== -1; end = buffer.indexOf("\n\n")) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const name = /^event: (.*)$/m.exec(block)?.[1] as keyof DevRunEvents | undefined;
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (!name || data === undefined || !(name in on)) continue;
      (on[name] as (data: unknown) => void)(JSON.parse(data));
    }
  }
}

/** Calls `onUpdate` with each new project version the server announces (reconnects on its own). */
export function watchProject(onUpdate: (version: number) => void): EventSource {
  const source = new EventSource("/_dev/events");
  source.addEventListener("update", (event) =>
    onUpdate((JSON.parse((event as MessageEvent).data) as { version: number }).version),
  );
  return source;
}
