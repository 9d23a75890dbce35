/**
 * AWS Signature Version 4 (header signing) over web-standard `crypto.subtle`, so it runs in browsers too.
 * The signature covers the method, the path, the sorted query, the sorted lower-cased headers (always
 * `host` and `x-amz-date`; `x-amz-security-token` with temporary credentials) and the SHA-256 of the exact
 * body bytes sent — so a request must be signed after its body is final, and sent with that body.
 *
 * Paths are canonicalized the way every AWS service but S3 expects: each segment of the path as it goes on
 * the wire is percent-encoded once more. A Bedrock model id `a.b-v1:0` is sent as `a.b-v1%3A0` and signed as
 * `a.b-v1%253A0`, which is what the AWS SDKs do.
 */

/** An access key pair, with the session token of temporary (STS) credentials. */
export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** What is signed: the request as it will be sent. */
export interface AwsSignableRequest {
  method: string;
  url: string;
  headers: Readonly<Record<string, string>>;
  /** The exact body text sent (empty for none). */
  body: string;
}

export interface AwsSigningSettings {
  credentials: AwsCredentials;
  region: string;
  /** The signing name: `bedrock` for `bedrock-runtime`, `iam`, `s3`, … */
  service: string;
  /** The signing time (default: now). */
  now?: Date;
}

export interface AwsSignature {
  /** The request's headers plus `x-amz-date`, `x-amz-security-token` (if any) and `authorization`. */
  headers: Record<string, string>;
  signature: string;
  canonicalRequest: string;
  stringToSign: string;
}

const algorithm = "AWS4-HMAC-SHA256";
const encoder = new TextEncoder();

/** Signs `request`; the returned headers replace the request's (names of added headers are lower-case). */
export async function signAwsRequest(
  request: AwsSignableRequest,
  settings: AwsSigningSettings,
): Promise<AwsSignature> {
  const { credentials, region, service } = settings;
  const url = new URL(request.url);
  const amzDate = formatAmzDate(settings.now ?? new Date());
  const day = amzDate.slice(0, 8);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    // A stale signature or date from an earlier signing must not be signed again.
    if (!/^(authorization|x-amz-date|x-amz-security-token)$/i.test(name)) headers[name] = value;
  }
  headers["x-amz-date"] = amzDate;
  if (credentials.sessionToken !== undefined) headers["x-amz-security-token"] = credentials.sessionToken;

  // `host` is signed but not set: fetch derives it from the URL (and browsers forbid setting it).
  const signed = new Map<string, string>([["host", url.host]]);
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    const normalized = value.trim().replace(/\s+/g, " ");
    const previous = signed.get(lower);
    signed.set(lower, previous === undefined || lower === "host" ? normalized : `${previous},${normalized}`);
  }
  const names = [...signed.keys()].sort();
  const signedHeaders = names.join(";");
  const canonicalRequest = [
    request.method.toUpperCase(),
    canonicalPath(url.pathname),
    canonicalQuery(url.searchParams),
    // Each header line ends in "\n", and the join adds one more: the blank line AWS requires.
    names.map((name) => `${name}:${signed.get(name)}\n`).join(""),
    signedHeaders,
    await sha256Hex(request.body),
  ].join("\n");
  const scope = `${day}/${region}/${service}/aws4_request`;
  const stringToSign = [algorithm, amzDate, scope, await sha256Hex(canonicalRequest)].join("\n");
  let key = await hmac(encoder.encode(`AWS4${credentials.secretAccessKey}`), day);
  for (const part of [region, service, "aws4_request"]) key = await hmac(key, part);
  const signature = toHex(await hmac(key, stringToSign));
  headers.authorization = `${algorithm} Credential=${credentials.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return { headers, signature, canonicalRequest, stringToSign };
}

/** `20150830T123600Z` */
export function formatAmzDate(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
}

/** RFC 3986 encoding as SigV4 defines it: everything but `A-Z a-z 0-9 - _ . ~` is percent-encoded. */
export function awsUriEncode(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function canonicalPath(path: string): string {
  if (path === "") return "/";
  return path.split("/").map(awsUriEncode).join("/");
}

function canonicalQuery(query: URLSearchParams): string {
  const pairs = [...query].map(([name, value]) => [awsUriEncode(name), awsUriEncode(value)] as const);
  pairs.sort(([leftName, leftValue], [rightName, rightValue]) =>
    leftName === rightName ? compare(leftValue, rightValue) : compare(leftName, rightName),
  );
  return pairs.map(([name, value]) => `${name}=${value}`).join("&");
}

/** Byte order (code-unit order equals it for the ASCII of encoded text), not locale order. */
function compare(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

async function sha256Hex(text: string): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text))));
}

async function hmac(key: Uint8Array, text: string): Promise<Uint8Array> {
  const imported = await crypto.subtle.importKey(
    "raw",
    key as Uint8Array<ArrayBuffer>,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return new Uint8Array(await crypto.subtle.sign("HMAC", imported, encoder.encode(text)));
}

function toHex(bytes: Uint8Array): string {
  let hex = "";
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0");
  return hex;
}
