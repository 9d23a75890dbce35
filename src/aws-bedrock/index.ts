/**
 * `sapling-llm/aws-bedrock`: the `aws-bedrock` provider's adapter (Bedrock's Converse API, SigV4 signing,
 * AWS event streams, credentials from options, the environment or the shared profile files). It lives
 * outside `sapling-llm/runtime` so that a web page calling other providers does not download it
 * (docs/decisions/0020-aws-bedrock-entry-point.md). A generated client whose .baml declares an
 * `aws-bedrock` client passes it to its runtime itself, and so does the CLI; code that builds a runtime by
 * hand passes it too: `SaplingRuntime.fromIr(ir, { providers: [awsBedrock] })`. Browser-safe.
 */
import type { ProviderExtension } from "../llm/index.js";
import { createAwsBedrockAdapter } from "./aws-bedrock-adapter.js";

/** The `aws-bedrock` provider, for `RuntimeOptions.providers`. */
export const awsBedrock: ProviderExtension = {
  provider: "aws-bedrock",
  createAdapter: (options, settings) => createAwsBedrockAdapter(options, settings),
};

export type { AwsEventStreamHeaderValue, AwsEventStreamMessage } from "./aws-event-stream.js";
export {
  AwsEventStreamDecoder,
  AwsEventStreamError,
  encodeAwsEventStreamMessage,
} from "./aws-event-stream.js";
export type {
  AwsCredentials,
  AwsSignableRequest,
  AwsSignature,
  AwsSigningSettings,
} from "./aws-sigv4.js";
export { signAwsRequest } from "./aws-sigv4.js";
