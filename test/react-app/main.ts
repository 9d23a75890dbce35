/**
 * The page the React hook tests drive (test/react-hooks.test.ts): the generated `useExtractResume` over
 * HTTP (`baml_client/react/http_hooks`, written next to this file by the test) and `useSaplingObject`
 * over a route that streams object partials. No JSX, so Vite needs no React plugin to build it.
 */
import { createElement as h, type ReactNode, useRef, useState } from "react";
import { createRoot } from "react-dom/client";
import { SaplingProvider, useSaplingObject } from "sapling-llm/react";
import { useExtractResume } from "./baml_client/react/http_hooks.js";

const recipeSchema = {
  type: "object",
  properties: {
    title: { type: "string" },
    steps: { type: "array", items: { type: "string" } },
  },
  required: ["title", "steps"],
};

interface Recipe {
  title: string;
  steps: string[];
}

function ResumePanel(): ReactNode {
  const partials = useRef(0);
  const [input, setInput] = useState("Jane Doe, Rust and Go, 8 years");
  const hook = useExtractResume({
    onStreamData: () => {
      partials.current++;
    },
  });
  return h(
    "section",
    null,
    h("input", { id: "input", value: input, onChange: (event) => setInput(event.target.value) }),
    h("button", { id: "run", type: "button", onClick: () => void hook.mutate(input) }, "Run"),
    h("button", { id: "reset", type: "button", onClick: () => hook.reset() }, "Reset"),
    h("output", { id: "status" }, hook.status),
    h("output", { id: "loading" }, String(hook.isLoading)),
    h("output", { id: "partials" }, String(partials.current)),
    h("pre", { id: "data" }, JSON.stringify(hook.data ?? null)),
    h("pre", { id: "final" }, JSON.stringify(hook.finalData ?? null)),
    h("pre", { id: "error-name" }, hook.isError ? (hook.error?.name ?? "") : ""),
    h(
      "pre",
      { id: "error-raw" },
      hook.isError ? String((hook.error as { raw_output?: string }).raw_output) : "",
    ),
  );
}

function RecipePanel(): ReactNode {
  const recipe = useSaplingObject<typeof recipeSchema, Recipe, { dish: string }>({
    api: "/api/recipe",
    schema: recipeSchema,
  });
  return h(
    "section",
    null,
    h(
      "button",
      { id: "object-run", type: "button", onClick: () => void recipe.submit({ dish: "pancakes" }) },
      "Recipe",
    ),
    h("output", { id: "object-loading" }, String(recipe.isLoading)),
    h("pre", { id: "object" }, JSON.stringify(recipe.object ?? null)),
    h("pre", { id: "object-error" }, recipe.error ? recipe.error.message : ""),
  );
}

function App(): ReactNode {
  const [mounted, setMounted] = useState(true);
  return h(
    SaplingProvider,
    null,
    h("button", { id: "unmount", type: "button", onClick: () => setMounted(false) }, "Unmount"),
    h("output", { id: "mounted" }, String(mounted)),
    mounted ? h(ResumePanel) : null,
    h(RecipePanel),
  );
}

const root = document.getElementById("root");
if (root) createRoot(root).render(h(App));
