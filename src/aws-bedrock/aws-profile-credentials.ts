/**
 * Static keys from an AWS profile (see aws-shared-config-files.ts). Sapling signs with static keys only:
 * a profile that needs another AWS call or a program to get keys (assume role, SSO, web identity,
 * `credential_process`) is refused with what to do instead, in the order the AWS SDK for JavaScript
 * resolves a profile (an assume-role profile is that even when it also lists keys).
 */

import { LlmOptionsError } from "../provider-helpers/index.js";
import type { AwsSharedFilePaths, AwsSharedProfile } from "./aws-shared-config-files.js";
import type { AwsCredentials } from "./aws-sigv4.js";

/** What to do when a profile cannot be used: the same advice for every unsupported kind. */
const exportKeys =
  'Sapling reads static keys (aws_access_key_id, aws_secret_access_key, aws_session_token) from profiles only. Export the profile\'s keys into the environment instead (e.g. eval "$(aws configure export-credentials --profile NAME --format env)", after aws sso login for SSO), or pass access_key_id and secret_access_key in the client options.';

/**
 * The profile's keys. Throws `LlmOptionsError` (on `option`) when the profile needs more than static
 * keys, has none, or has half a pair; the message names the profile and files, never a value.
 */
export function awsProfileCredentials(
  profile: AwsSharedProfile,
  paths: AwsSharedFilePaths,
  option: string,
  provider: string,
): AwsCredentials {
  const fail = (detail: string): never => {
    throw new LlmOptionsError(option, detail, { provider });
  };
  const where = `the AWS profile ${JSON.stringify(profile.name)} (in ${profile.foundIn.map((path) => JSON.stringify(path)).join(" and ")})`;
  const advice = exportKeys.replace("NAME", profile.name);
  const values = profile.values;
  if (values.role_arn !== undefined) {
    return fail(`${where} assumes a role (role_arn), which Sapling does not do. ${advice}`);
  }
  const accessKeyId = values.aws_access_key_id;
  const secretAccessKey = values.aws_secret_access_key;
  if (accessKeyId !== undefined && secretAccessKey !== undefined) {
    const sessionToken = values.aws_session_token;
    return { accessKeyId, secretAccessKey, ...(sessionToken === undefined ? {} : { sessionToken }) };
  }
  if (accessKeyId !== undefined) return fail(`${where} has aws_access_key_id but no aws_secret_access_key.`);
  if (secretAccessKey !== undefined) {
    return fail(`${where} has aws_secret_access_key but no aws_access_key_id.`);
  }
  const kind =
    values.web_identity_token_file !== undefined
      ? "uses a web identity token (web_identity_token_file)"
      : values.credential_process !== undefined
        ? "runs a program for its keys (credential_process)"
        : Object.keys(values).some((key) => key.startsWith("sso_"))
          ? "signs in through IAM Identity Center (sso_*)"
          : `has no keys (aws_access_key_id, aws_secret_access_key; see ${JSON.stringify(paths.credentials)})`;
  return fail(`${where} ${kind}. ${advice}`);
}
