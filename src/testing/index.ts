/**
 * `sapling-llm/testing`: a mock LLM server (OpenAI, Anthropic and Gemini wire formats, fault injection) and a
 * replaying fake `fetch`, so tests, demos and benchmarks never touch a real provider. Node only.
 */
export type {
  TestServiceAccount,
  TestServiceAccountKeyFile,
  TestServiceAccountOptions,
} from "./create-test-service-account.js";
export { createTestServiceAccount } from "./create-test-service-account.js";
export type { MockAnswer, MockFault, MockRoute, MockToolCall } from "./mock-answer.js";
export {
  answer,
  cutByLength,
  hang,
  malformedStream,
  rateLimited,
  resetMidStream,
  serverError,
  slowFirstToken,
  toolCallAnswer,
} from "./mock-answer.js";
export type { MockAnswerProfile, ProfileRow } from "./mock-answer-profiles.js";
export { mockAnswerProfiles, profileAnswerKey, respondWithProfiles } from "./mock-answer-profiles.js";
export { mockAwsCredentials } from "./mock-bedrock-auth.js";
export type { MockTokenEndpointOptions, RecordedTokenRequest } from "./mock-google-token-endpoint.js";
export { MockGoogleTokenEndpoint } from "./mock-google-token-endpoint.js";
export type { MockScript } from "./parse-mock-script.js";
export { MockScriptError, parseMockScript } from "./parse-mock-script.js";
export { readPromptText } from "./read-prompt-text.js";
export type { ReplayCall, ReplayFetch, ReplayResponse } from "./replay-fetch.js";
export { createReplayFetch, randomSplitPoints } from "./replay-fetch.js";
export type { MockLlmServer, MockLlmServerOptions, RecordedRequest } from "./start-mock-llm-server.js";
export { startMockLlmServer } from "./start-mock-llm-server.js";
