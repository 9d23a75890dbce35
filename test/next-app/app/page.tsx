"use client";
/**
 * The page the Next.js test drives (test/react-next.test.ts): the generated `useExtractResume` of
 * `baml_client/react/hooks` (written next to `app/` by the test), backed by the generated server actions.
 */
import { useRef, useState } from "react";
import { useExtractResume } from "../baml_client/react/hooks";

export default function Page() {
  const partials = useRef(0);
  const [input, setInput] = useState("Jane Doe, Rust and Go, 8 years");
  const [stream, setStream] = useState(true);
  const streaming = useExtractResume({
    onStreamData: () => {
      partials.current++;
    },
  });
  const whole = useExtractResume({ stream: false });
  const hook = stream ? streaming : whole;
  return (
    <main>
      <input id="input" value={input} onChange={(event) => setInput(event.target.value)} />
      <label>
        <input
          id="stream"
          type="checkbox"
          checked={stream}
          onChange={(event) => setStream(event.target.checked)}
        />
        stream
      </label>
      <button id="run" type="button" onClick={() => void hook.mutate(input)}>
        Run
      </button>
      <output id="status">{hook.status}</output>
      <output id="partials">{String(partials.current)}</output>
      <pre id="data">{JSON.stringify(hook.data ?? null)}</pre>
      <pre id="final">{JSON.stringify(hook.finalData ?? null)}</pre>
      <pre id="error-name">{hook.isError ? hook.error?.name : ""}</pre>
      <pre id="error-raw">
        {hook.isError ? String((hook.error as { raw_output?: string }).raw_output) : ""}
      </pre>
    </main>
  );
}
