/**
 * The limits every media download obeys when the policy does not set its own. Apart from the policy
 * (media-url-policy.ts), which loads with the downloader on first use, so that the CLI's usage text can show
 * them without loading it.
 */
export const defaultMediaLimits = { maxBytes: 32 * 1024 * 1024, timeoutMs: 30_000, maxRedirects: 5 };
