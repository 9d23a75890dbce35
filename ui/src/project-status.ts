import type { DevProjectView } from "../../src/dev/dev-api.js";

/**
 * The header's status line: "Up to date" only while the files as saved compile; with errors it says the
 * page shows the last state that compiled (the lists and previews are that state's, not the files').
 */
export function projectStatus(project: Pick<DevProjectView, "version" | "diagnostics">): {
  text: string;
  state: "current" | "errors";
} {
  const errors = project.diagnostics.errors;
  if (errors === 0) return { text: `Up to date (version ${project.version})`, state: "current" };
  return {
    text: `${errors} error${errors === 1 ? "" : "s"}: showing the last state that compiled`,
    state: "errors",
  };
}
