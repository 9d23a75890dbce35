/**
 * The repository's web address: package.json's `homepage` without its `#readme` (a test keeps the two
 * equal). Messages link here because the npm package ships `dist/` and the README, not `docs/`.
 */
export const REPOSITORY_URL = "https://github.com/sapling-llm/sapling";

/**
 * The web address of a page of `docs/` (`docsUrl("runtime.md", "call-options")`), for messages and
 * usage texts that a user reads where the repository's files are not.
 */
export function docsUrl(page: string, heading?: string): string {
  return `${REPOSITORY_URL}/blob/main/docs/${page}${heading === undefined ? "" : `#${heading}`}`;
}
