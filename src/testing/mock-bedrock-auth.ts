/**
 * The mock server's check of Bedrock request signatures, answering as Bedrock does (HTTP 403 with a
 * `message`): a request needs a SigV4 `authorization` header (or a Bedrock API key as a bearer token), its
 * access key must be one the server knows, and the signature is recomputed from the request as received —
 * method, path, query, the signed headers and the exact body — with that key's secret.
 */
import { signAwsRequest } from "../aws-bedrock/index.js";

/** The AWS documentation's example key pair, which the mock server accepts unless told otherwise. */
export const mockAwsCredentials = {
  accessKeyId: "AKIDEXAMPLE",
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
} as const;

export interface BedrockAuthRequest {
  method: string;
  /** The request target as received (path and query, still percent-encoded). */
  target: string;
  /** Header names lower-cased. */
  headers: Readonly<Record<string, string>>;
  body: string;
}

const sigV4 =
  /^AWS4-HMAC-SHA256 Credential=([^/\s]+)\/(\d{8})\/([^/\s]+)\/bedrock\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/;

/** `undefined` when the request is authorized, else Bedrock's 403 body. */
export async function checkBedrockAuthorization(
  request: BedrockAuthRequest,
  secrets: Readonly<Record<string, string>>,
): Promise<{ message: string } | undefined> {
  const authorization = request.headers.authorization;
  if (authorization === undefined) return { message: "Missing Authentication Token" };
  if (/^Bearer \S+$/.test(authorization)) return undefined;
  const match = sigV4.exec(authorization);
  const amzDate = request.headers["x-amz-date"] ?? "";
  if (match === null || !/^\d{8}T\d{6}Z$/.test(amzDate)) {
    return {
      message: `Authorization header requires a SigV4 Credential (…/bedrock/aws4_request), SignedHeaders, Signature and an x-amz-date header; got ${JSON.stringify(authorization.slice(0, 40))}.`,
    };
  }
  const [, accessKeyId = "", day, region = "", signedHeaderList = "", signature] = match;
  const secretAccessKey = secrets[accessKeyId];
  if (secretAccessKey === undefined)
    return { message: "The security token included in the request is invalid." };
  if (day !== amzDate.slice(0, 8)) return { message: "Credential should be scoped to a valid date." };
  const names = signedHeaderList.split(";");
  if (!names.includes("host") || !names.includes("x-amz-date")) {
    return { message: "The host and x-amz-date headers must be signed." };
  }
  const headers: Record<string, string> = {};
  for (const name of names) if (name !== "host") headers[name] = request.headers[name] ?? "";
  const sessionToken = request.headers["x-amz-security-token"];
  const expected = await signAwsRequest(
    {
      method: request.method,
      url: `http://${request.headers.host}${request.target}`,
      headers,
      body: request.body,
    },
    {
      credentials: { accessKeyId, secretAccessKey, ...(sessionToken === undefined ? {} : { sessionToken }) },
      region,
      service: "bedrock",
      now: new Date(
        `${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`,
      ),
    },
  );
  if (expected.signature !== signature) {
    return {
      message:
        "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.",
    };
  }
  return undefined;
}
