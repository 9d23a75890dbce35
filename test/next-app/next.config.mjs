/** The test's Next.js app: no type-check or lint in `next build` (the test type-checks the client itself). */
export default {
  typescript: { ignoreBuildErrors: true },
  // The app is built inside the repository's .tmp/; the workspace root is the repository.
  turbopack: { root: new URL("../../", import.meta.url).pathname },
};
