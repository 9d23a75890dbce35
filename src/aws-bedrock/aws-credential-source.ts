/**
 * Where `aws-bedrock` takes its keys from, decided when the client is created: the options, the
 * environment, or a profile of the AWS shared files (read later, at `authorize`). Split from the adapter
 * to keep the precedence rules and their messages in one place.
 */
import type { AwsCredentials } from "./aws-sigv4.js";

/** How requests are authorized: as built, with known keys, or with a profile's keys read at `authorize`. */
export type CredentialSource =
  | { type: "unsigned" }
  | { type: "static"; credentials: AwsCredentials }
  | { type: "profile" };

/** How to give keys instead, for messages ("pass … or set …"). */
export const passKeys =
  "pass access_key_id and secret_access_key (e.g. access_key_id env.AWS_ACCESS_KEY_ID), or set the AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY environment variables (with AWS_SESSION_TOKEN for temporary credentials)";

/**
 * Where the keys come from, in this order: the options' keys; a `profile` option (an explicit choice in
 * the client, so it wins over keys in the environment, as an explicitly named profile does in the AWS
 * SDKs for JavaScript and Python; BAML's option resolution fills keys from the environment first); the
 * environment's keys (they win over `AWS_PROFILE`, as in the AWS CLI, boto3 and the Rust SDK BAML uses);
 * then the `AWS_PROFILE` or `default` profile from the shared files, when the host can read files.
 * Throws `LlmOptionsError` (through `fail`) for half a key pair, or when nothing can give keys.
 */
export function resolveCredentialSource(
  text: (name: string) => string | undefined,
  environment: (name: string) => string | undefined,
  canReadFiles: boolean,
  fail: (option: string, detail: string) => never,
): CredentialSource {
  const accessKeyId = text("access_key_id");
  const secretAccessKey = text("secret_access_key");
  const sessionToken = text("session_token");
  if (accessKeyId !== undefined || secretAccessKey !== undefined) {
    if (accessKeyId === undefined) fail("access_key_id", "is required with secret_access_key.");
    if (secretAccessKey === undefined) fail("secret_access_key", "is required with access_key_id.");
    return staticCredentials(accessKeyId as string, secretAccessKey as string, sessionToken);
  }
  if (sessionToken !== undefined) fail("session_token", "needs access_key_id and secret_access_key.");
  const noFiles =
    "this host cannot read files (AWS profiles in ~/.aws work on Node: the runtime and the sapling CLI read them)";
  if (text("profile") !== undefined) {
    if (canReadFiles) return { type: "profile" };
    fail(
      "profile",
      `names an AWS profile, and ${noFiles}. Here, ${passKeys} instead, or give the runtime a file reader: SaplingRuntime.fromIr(ir, { readTextFile }).`,
    );
  }
  const fromEnvironment = {
    accessKeyId: environment("AWS_ACCESS_KEY_ID"),
    secretAccessKey: environment("AWS_SECRET_ACCESS_KEY"),
  };
  if (fromEnvironment.accessKeyId !== undefined && fromEnvironment.secretAccessKey !== undefined) {
    return staticCredentials(
      fromEnvironment.accessKeyId,
      fromEnvironment.secretAccessKey,
      environment("AWS_SESSION_TOKEN"),
    );
  }
  const partly =
    fromEnvironment.accessKeyId !== undefined
      ? " (AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not)"
      : fromEnvironment.secretAccessKey !== undefined
        ? " (AWS_SECRET_ACCESS_KEY is set but AWS_ACCESS_KEY_ID is not)"
        : "";
  if (partly === "" && canReadFiles) return { type: "profile" };
  return fail(
    "access_key_id",
    `no AWS credentials found${partly}: ${passKeys}.${canReadFiles ? "" : ` Profiles (AWS_PROFILE, ~/.aws) are not read: ${noFiles}.`} SSO, assumed roles and instance roles are not supported.`,
  );
}

function staticCredentials(
  accessKeyId: string,
  secretAccessKey: string,
  sessionToken: string | undefined,
): CredentialSource {
  return {
    type: "static",
    credentials: { accessKeyId, secretAccessKey, ...(sessionToken === undefined ? {} : { sessionToken }) },
  };
}
