/**
 * aws-bedrock keys and region from AWS profiles (the shared credentials and config files), through
 * `createLanguageModel` with a fake `readTextFile` over an in-memory file map: which profile is read
 * (option, AWS_PROFILE, default), where the files are (home, override variables), the order against keys
 * in the options and the environment, missing files, profiles Sapling cannot use, caching, and hosts that
 * read no files. The runtime and CLI round trips are in src/runtime/aws-bedrock-provider.test.ts and
 * src/cli/commands/call.test.ts.
 */
import { describe, expect, it } from "vitest";
import { createLanguageModel as createAnyLanguageModel } from "../llm/create-language-model.js";
import type { ProviderRequest, ReadTextFile } from "../llm/index.js";
import { LlmOptionsError } from "../provider-helpers/index.js";
import type { ChatMessage } from "../util/index.js";
import { type AwsCredentials, signAwsRequest } from "./aws-sigv4.js";
import { awsBedrock } from "./index.js";

/** `createLanguageModel` given this room's adapter, as the runtime gives it. */
const createLanguageModel: typeof createAnyLanguageModel = (provider, options, dependencies) =>
  createAnyLanguageModel(provider, options, { ...dependencies, providers: [awsBedrock] });

const model = "anthropic.claude-3-5-haiku-20241022-v1:0";
const messages: ChatMessage[] = [{ role: "user", parts: [{ type: "text", text: "hi" }] }];
const fetchNever: typeof fetch = async () => {
  throw new Error("no request is sent in these tests");
};
const home = "/home/ada";
const defaultKeys = {
  accessKeyId: "AKIADEFAULTPROFILE",
  secretAccessKey: "default/Secret+Key0000000000000000000000",
};
const devKeys = {
  accessKeyId: "AKIADEVPROFILE",
  secretAccessKey: "dev/Secret+Key00000000000000000000000000",
};
const credentialsFile = `# written by aws configure
[default]
aws_access_key_id = ${defaultKeys.accessKeyId}
aws_secret_access_key = ${defaultKeys.secretAccessKey}

[dev]
aws_access_key_id=${devKeys.accessKeyId}
aws_secret_access_key=${devKeys.secretAccessKey}
aws_session_token = IQoJb3JpZ2luX2VjDEVTOKEN
`;
const configFile = `[default]
region = eu-west-3
output = json

[profile dev]
region = ap-south-1 ; the dev account lives here
`;

/** A reader over `files`; a path not in it fails as Node does (ENOENT). Counts reads per path. */
function fakeReader(files: Record<string, string>) {
  const reads: string[] = [];
  const readTextFile: ReadTextFile = async (path) => {
    reads.push(path);
    const text = files[path];
    if (text === undefined) {
      throw Object.assign(new Error(`ENOENT: no such file or directory, open '${path}'`), { code: "ENOENT" });
    }
    return text;
  };
  return { readTextFile, reads, files };
}

const standardFiles = () =>
  fakeReader({ [`${home}/.aws/credentials`]: credentialsFile, [`${home}/.aws/config`]: configFile });

function build(
  options: Record<string, unknown>,
  env: Record<string, string>,
  readTextFile: ReadTextFile | undefined,
): Promise<ProviderRequest> {
  return createLanguageModel(
    "aws-bedrock",
    { model, ...options },
    { fetch: fetchNever, env, ...(readTextFile === undefined ? {} : { readTextFile }) },
  ).buildRequest(messages, { stream: false });
}

/** Checks the request is signed for `region` with `credentials` (recomputing the signature). */
async function expectSignedWith(request: ProviderRequest, credentials: AwsCredentials, region: string) {
  expect(request.url).toBe(
    `https://bedrock-runtime.${region}.amazonaws.com/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/converse`,
  );
  const amzDate = request.headers["x-amz-date"] ?? "";
  const now = new Date(
    `${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`,
  );
  const { authorization, ...signedHeaders } = request.headers;
  const expected = await signAwsRequest(
    { method: "POST", url: request.url, headers: signedHeaders, body: JSON.stringify(request.body) },
    { credentials, region, service: "bedrock", now },
  );
  expect(authorization).toBe(expected.headers.authorization);
  expect(request.headers["x-amz-security-token"]).toBe(credentials.sessionToken);
}

async function optionsError(pending: Promise<unknown> | (() => unknown)): Promise<LlmOptionsError> {
  const error = await (typeof pending === "function" ? Promise.resolve().then(pending) : pending).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (LlmOptionsError.isInstance(error)) return error;
  throw new Error(`expected an options error, got ${String(error)}`);
}

describe("aws-bedrock profiles", () => {
  it("signs with the default profile's keys and its config region when nothing else gives them", async () => {
    const { readTextFile } = standardFiles();
    const request = await build({}, { HOME: home }, readTextFile);
    await expectSignedWith(request, defaultKeys, "eu-west-3");
  });

  it("the profile option picks [dev] and [profile dev], its session token, and wins over keys in the environment", async () => {
    const { readTextFile } = standardFiles();
    const env = {
      HOME: home,
      AWS_ACCESS_KEY_ID: "AKIAENVIRONMENT",
      AWS_SECRET_ACCESS_KEY: "environment-secret",
    };
    const request = await build({ profile: "dev" }, env, readTextFile);
    await expectSignedWith(request, { ...devKeys, sessionToken: "IQoJb3JpZ2luX2VjDEVTOKEN" }, "ap-south-1");
  });

  it("AWS_PROFILE picks the profile; keys in the environment win over it without reading a file", async () => {
    const { readTextFile, reads } = standardFiles();
    const request = await build({}, { USERPROFILE: home, AWS_PROFILE: "dev" }, readTextFile);
    await expectSignedWith(request, { ...devKeys, sessionToken: "IQoJb3JpZ2luX2VjDEVTOKEN" }, "ap-south-1");
    const environmentKeys = { accessKeyId: "AKIAENVIRONMENT", secretAccessKey: "environment-secret" };
    const other = standardFiles();
    const fromEnvironment = await build(
      { region: "us-east-1" },
      {
        HOME: home,
        AWS_PROFILE: "dev",
        AWS_ACCESS_KEY_ID: "AKIAENVIRONMENT",
        AWS_SECRET_ACCESS_KEY: "environment-secret",
      },
      other.readTextFile,
    );
    await expectSignedWith(fromEnvironment, environmentKeys, "us-east-1");
    expect(other.reads).toEqual([]);
    expect(reads.length).toBe(2);
  });

  it("keys in the options and a region from the options or environment need no file", async () => {
    const { readTextFile, reads } = standardFiles();
    const request = await build(
      { access_key_id: devKeys.accessKeyId, secret_access_key: devKeys.secretAccessKey, profile: "dev" },
      { HOME: home, AWS_REGION: "us-west-2" },
      readTextFile,
    );
    await expectSignedWith(request, devKeys, "us-west-2");
    expect(reads).toEqual([]);
  });

  it("environment keys take the region from the config file when none is set", async () => {
    const { readTextFile } = standardFiles();
    const env = {
      HOME: home,
      AWS_ACCESS_KEY_ID: devKeys.accessKeyId,
      AWS_SECRET_ACCESS_KEY: devKeys.secretAccessKey,
    };
    await expectSignedWith(await build({}, env, readTextFile), devKeys, "eu-west-3");
  });

  it("AWS_SHARED_CREDENTIALS_FILE and AWS_CONFIG_FILE move the files (~/ expands to the home directory)", async () => {
    const { readTextFile, reads } = fakeReader({
      "/secrets/aws-credentials": credentialsFile,
      [`${home}/work/aws-config`]: configFile,
    });
    const env = {
      HOME: `${home}/`,
      AWS_SHARED_CREDENTIALS_FILE: "/secrets/aws-credentials",
      AWS_CONFIG_FILE: "~/work/aws-config",
    };
    await expectSignedWith(await build({}, env, readTextFile), defaultKeys, "eu-west-3");
    expect(reads.sort()).toEqual([`${home}/work/aws-config`, "/secrets/aws-credentials"]);
  });

  it("a missing credentials file is fine when the config file has the profile's keys, and the reverse", async () => {
    const configOnly = fakeReader({
      [`${home}/.aws/config`]: `[profile ci]\naws_access_key_id = ${devKeys.accessKeyId}\naws_secret_access_key = ${devKeys.secretAccessKey}\nregion = sa-east-1\n`,
    });
    await expectSignedWith(
      await build({ profile: "ci" }, { HOME: home }, configOnly.readTextFile),
      devKeys,
      "sa-east-1",
    );
    const credentialsOnly = fakeReader({ [`${home}/.aws/credentials`]: credentialsFile });
    await expectSignedWith(
      await build({}, { HOME: home, AWS_DEFAULT_REGION: "us-east-2" }, credentialsOnly.readTextFile),
      defaultKeys,
      "us-east-2",
    );
    // The credentials file's keys win over the config file's for the same profile.
    const both = fakeReader({
      [`${home}/.aws/credentials`]: credentialsFile,
      [`${home}/.aws/config`]: `[default]\naws_access_key_id = AKIACONFIG\naws_secret_access_key = config-secret\nregion = eu-north-1\n`,
    });
    await expectSignedWith(await build({}, { HOME: home }, both.readTextFile), defaultKeys, "eu-north-1");
  });

  it("a profile in neither file fails naming the profile and both paths; no default profile says what to do", async () => {
    const { readTextFile } = standardFiles();
    const named = await optionsError(
      build({ region: "us-east-1" }, { HOME: home, AWS_PROFILE: "prod" }, readTextFile),
    );
    expect(named.option).toBe("profile");
    expect(named.message).toContain(
      `the AWS profile "prod" (from AWS_PROFILE) is in neither "${home}/.aws/credentials" nor "${home}/.aws/config"`,
    );
    const nothing = fakeReader({});
    const none = await optionsError(build({ region: "us-east-1" }, { HOME: home }, nothing.readTextFile));
    expect(none.option).toBe("access_key_id");
    expect(none.message).toContain(
      `no [default] profile in "${home}/.aws/credentials" or "${home}/.aws/config"`,
    );
    expect(none.message).toContain(
      "set the AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY environment variables",
    );
  });

  it("a region missing everywhere fails when the request is authorized, naming the profile and config path", async () => {
    const { readTextFile } = fakeReader({ [`${home}/.aws/credentials`]: credentialsFile });
    const error = await optionsError(build({ profile: "dev" }, { HOME: home }, readTextFile));
    expect(error.option).toBe("region");
    expect(error.message).toContain('set region "us-east-1" in the client options, or the AWS_REGION');
    expect(error.message).toContain(`region in the AWS profile "dev" of "${home}/.aws/config"`);
  });

  it.each([
    [
      "an SSO profile",
      "sso_session = my-sso\nsso_account_id = 123456789012",
      "signs in through IAM Identity Center (sso_*)",
    ],
    ["a legacy SSO profile", "sso_start_url = https://example.awsapps.com/start", "IAM Identity Center"],
    [
      "a credential process",
      "credential_process = /usr/bin/get-keys",
      "runs a program for its keys (credential_process)",
    ],
    [
      "an assumed role, even beside keys",
      `role_arn = arn:aws:iam::123456789012:role/r\nsource_profile = default\naws_access_key_id = ${devKeys.accessKeyId}\naws_secret_access_key = ${devKeys.secretAccessKey}`,
      "assumes a role (role_arn)",
    ],
    [
      "a web identity",
      "web_identity_token_file = /var/run/token\nrole_session_name = s",
      "uses a web identity token",
    ],
    ["no keys at all", "output = json", "has no keys (aws_access_key_id, aws_secret_access_key"],
    [
      "half a key pair",
      `aws_access_key_id = ${devKeys.accessKeyId}`,
      "has aws_access_key_id but no aws_secret_access_key",
    ],
  ])("refuses %s with what to do instead", async (_name, body, detail) => {
    const { readTextFile } = fakeReader({
      [`${home}/.aws/config`]: `[profile work]\nregion = us-east-1\n${body}\n`,
    });
    const error = await optionsError(build({ profile: "work" }, { HOME: home }, readTextFile));
    expect(error.option).toBe("profile");
    expect(error.message).toContain(`the AWS profile "work" (in "${home}/.aws/config")`);
    expect(error.message).toContain(detail);
    if (!detail.startsWith("has aws_access_key_id")) {
      expect(error.message).toContain("Sapling reads static keys");
      expect(error.message).toContain("aws configure export-credentials --profile work --format env");
    }
    expect(error.message).not.toContain(devKeys.secretAccessKey);
  });

  it("reads each file once per reader, and again after a failed read", async () => {
    const { readTextFile, reads } = standardFiles();
    for (let index = 0; index < 3; index++) await build({ profile: "dev" }, { HOME: home }, readTextFile);
    expect(reads).toHaveLength(2);
    const broken = fakeReader({ [`${home}/.aws/config`]: configFile });
    const failing: ReadTextFile = async (path) => {
      if (path.endsWith("credentials") && broken.files[`${home}/.aws/credentials`] === undefined) {
        throw Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" });
      }
      return broken.readTextFile(path);
    };
    const error = await optionsError(build({}, { HOME: home }, failing));
    expect(error.message).toContain(
      `the AWS credentials file "${home}/.aws/credentials" cannot be read (EACCES: permission denied)`,
    );
    broken.files[`${home}/.aws/credentials`] = credentialsFile;
    await expectSignedWith(await build({}, { HOME: home }, failing), defaultKeys, "eu-west-3");
  });

  it("without a file reader, profiles and a missing region fail at creation saying what works", async () => {
    const profile = await optionsError(() =>
      build({ region: "us-east-1", profile: "dev" }, { HOME: home }, undefined),
    );
    expect(profile.option).toBe("profile");
    expect(profile.message).toContain("this host cannot read files (AWS profiles in ~/.aws work on Node");
    expect(profile.message).toContain("SaplingRuntime.fromIr(ir, { readTextFile })");
    const awsProfile = await optionsError(() =>
      build({ region: "us-east-1" }, { AWS_PROFILE: "dev" }, undefined),
    );
    expect(awsProfile.option).toBe("access_key_id");
    expect(awsProfile.message).toContain("Profiles (AWS_PROFILE, ~/.aws) are not read");
    const region = await optionsError(() =>
      build(
        {},
        { AWS_ACCESS_KEY_ID: devKeys.accessKeyId, AWS_SECRET_ACCESS_KEY: devKeys.secretAccessKey },
        undefined,
      ),
    );
    expect(region.option).toBe("region");
    expect(region.message).toContain('set region "us-east-1" in the client options');
  });
});
