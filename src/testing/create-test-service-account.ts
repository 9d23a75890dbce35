/**
 * A throwaway Google service-account key for tests: a fresh RSA key pair made with `crypto.subtle` each time
 * (no private key is ever committed), shaped like the JSON key file Google issues, with `token_uri` pointing
 * wherever the test says (the mock server's `tokenUri`).
 */

/** The key file's JSON fields, as Google writes them. */
export interface TestServiceAccountKeyFile {
  type: "service_account";
  project_id: string;
  private_key_id: string;
  private_key: string;
  client_email: string;
  client_id: string;
  token_uri: string;
}

export interface TestServiceAccount {
  /** The key file, to pass as `credentials` (object) or `JSON.stringify`-ed as `credentials_content`. */
  keyFile: TestServiceAccountKeyFile;
  /** The public half, for the mock token endpoint to verify signatures with. */
  publicKey: CryptoKey;
}

export interface TestServiceAccountOptions {
  tokenUri: string;
  projectId?: string;
  clientEmail?: string;
}

/** Makes a new key pair (RSA 2048, as Google's keys) and the key file around it. */
export async function createTestServiceAccount(
  options: TestServiceAccountOptions,
): Promise<TestServiceAccount> {
  const pair = await crypto.subtle.generateKey(
    {
      name: "RSASSA-PKCS1-v1_5",
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: "SHA-256",
    },
    true,
    ["sign", "verify"],
  );
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey("pkcs8", pair.privateKey));
  let binary = "";
  for (const byte of pkcs8) binary += String.fromCharCode(byte);
  const lines = btoa(binary).match(/.{1,64}/g) ?? [];
  const projectId = options.projectId ?? "test-project";
  return {
    keyFile: {
      type: "service_account",
      project_id: projectId,
      private_key_id: "test-key-1",
      private_key: `-----BEGIN PRIVATE KEY-----\n${lines.join("\n")}\n-----END PRIVATE KEY-----\n`,
      client_email: options.clientEmail ?? `sapling-test@${projectId}.iam.gserviceaccount.com`,
      client_id: "100000000000000000001",
      token_uri: options.tokenUri,
    },
    publicKey: pair.publicKey,
  };
}
