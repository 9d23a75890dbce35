/**
 * The AWS shared-file INI reading and path rules, on their own: section names per file kind, comments,
 * nested sub-settings, line endings, and where the files are.
 */
import { describe, expect, it } from "vitest";
import { awsSharedFilePaths, parseAwsIni } from "./aws-shared-config-files.js";

describe("parseAwsIni", () => {
  it("reads [profile name] and [default] from a config file, skipping other sections, comments and nested settings", () => {
    const sections = parseAwsIni(
      [
        "; top comment",
        "[default]",
        "region=us-east-1",
        "s3 =",
        "  max_concurrent_requests = 20",
        "output = json # inline comment",
        "[profile  dev ]",
        "Region = eu-west-1\r",
        "[sso-session corp]",
        "sso_region = us-east-1",
        "[dev]",
        "region = not-a-config-profile",
        "[profile default]",
        "cli_pager =less",
      ].join("\n"),
      "config",
    );
    expect(Object.fromEntries(sections)).toEqual({
      default: { region: "us-east-1", output: "json", cli_pager: "less" },
      dev: { region: "eu-west-1" },
    });
  });

  it("reads [name] sections from a credentials file, keeping # inside a value", () => {
    const sections = parseAwsIni(
      "[profile dev]\naws_access_key_id = A\n[default]\naws_secret_access_key = abc#def\n# done\n",
      "credentials",
    );
    expect(Object.fromEntries(sections)).toEqual({
      "profile dev": { aws_access_key_id: "A" },
      default: { aws_secret_access_key: "abc#def" },
    });
  });
});

describe("awsSharedFilePaths", () => {
  const from = (env: Record<string, string>) => awsSharedFilePaths((name) => env[name]);

  it("uses HOME, else USERPROFILE, and the override variables (expanding ~/)", () => {
    expect(from({ HOME: "/home/ada/" })).toEqual({
      credentials: "/home/ada/.aws/credentials",
      config: "/home/ada/.aws/config",
    });
    expect(from({ USERPROFILE: "C:\\Users\\ada" }).credentials).toBe("C:\\Users\\ada/.aws/credentials");
    expect(
      from({ HOME: "/home/ada", AWS_SHARED_CREDENTIALS_FILE: "~/keys", AWS_CONFIG_FILE: "conf/aws" }),
    ).toEqual({ credentials: "/home/ada/keys", config: "conf/aws" });
    expect(from({})).toEqual({ credentials: "~/.aws/credentials", config: "~/.aws/config" });
  });
});
