import { isRecord, ResponseShapeError } from "../../provider-helpers/index.js";
import type { SseEvent } from "../sse-decoder.js";

/** An SSE event's JSON data that names its own kind in `type` (Anthropic messages, OpenAI Responses). */
export type TypedEventData = Record<string, unknown> & { type: string };

/** Reads the event's data; throws `ResponseShapeError` when it is not JSON or has no `type`. */
export function readTypedEvent(event: SseEvent): TypedEventData {
  let data: unknown;
  try {
    data = JSON.parse(event.data);
  } catch {
    throw new ResponseShapeError("an SSE event's data is not JSON");
  }
  if (!isRecord(data) || typeof data.type !== "string") {
    throw new ResponseShapeError("an SSE event has no `type`");
  }
  return data as TypedEventData;
}
