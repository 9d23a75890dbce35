import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

/** The `sapling dev` page, built into dist/ui/ by `npm run build` (so the package ships it built). */
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "/",
  logLevel: "warn",
  build: {
    outDir: fileURLToPath(new URL("../dist/ui/", import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    // One script and one stylesheet; no inline script (the page's CSP allows none) and no preload polyfill.
    modulePreload: false,
    assetsInlineLimit: 0,
  },
});
