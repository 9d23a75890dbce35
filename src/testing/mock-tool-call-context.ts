import type { RenderContext } from "./mock-wire-formats.js";

/** Whether a mock answer ends by calling tools (and was not cut): its finish reason is then tool use. */
export function endsWithToolCalls(context: RenderContext): boolean {
  return context.finishReason !== "length" && (context.toolCalls?.length ?? 0) > 0;
}
