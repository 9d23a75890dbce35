import { basename, dirname, join, relative, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { BamlProject, type ProjectFile } from "./baml-project.js";
import type { LanguageServerHost } from "./language-server-host.js";

/** The folder name that makes a project (BAML's convention). */
const projectFolderName = "baml_src";

/**
 * Every project the editor has touched, by folder. A file belongs to the nearest `baml_src` folder above
 * it (or, outside one, to its own folder), so several `baml_src` folders — in one workspace folder or in
 * several — are separate projects with separate names and diagnostics.
 */
export class Workspace {
  private readonly projects = new Map<string, Promise<BamlProject>>();

  constructor(private readonly host: LanguageServerHost) {}

  /** The project of a file URI (loaded from disk the first time), and the file's key in it. */
  async locate(uri: string): Promise<{ project: BamlProject; path: string } | undefined> {
    const absolute = uriToPath(uri);
    if (absolute === undefined) return undefined;
    const dir = projectFolderOf(absolute);
    const project = await this.load(dir);
    return { project, path: relative(dir, absolute).split(sep).join("/") };
  }

  /** The file a URI names, when its project is loaded and has it. */
  async file(uri: string): Promise<{ project: BamlProject; file: ProjectFile } | undefined> {
    const located = await this.locate(uri);
    const file = located?.project.files.get(located.path);
    return located && file ? { project: located.project, file } : undefined;
  }

  loaded(): Promise<BamlProject[]> {
    return Promise.all(this.projects.values());
  }

  private load(dir: string): Promise<BamlProject> {
    let loading = this.projects.get(dir);
    if (!loading) {
      loading = (async () => {
        const project = new BamlProject(dir);
        for (const path of await this.host.listBamlFiles(dir)) {
          const text = await this.host.readFile(join(dir, path));
          if (text !== undefined) project.setText(path, pathToUri(join(dir, path)), text, 0, false);
        }
        return project;
      })();
      this.projects.set(dir, loading);
    }
    return loading;
  }
}

/** The project folder of a file: the nearest `baml_src` above it, else the file's own folder. */
export function projectFolderOf(file: string): string {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    if (basename(dir) === projectFolderName) return dir;
    if (dirname(dir) === dir) return dirname(file);
  }
}

export function uriToPath(uri: string): string | undefined {
  if (!uri.startsWith("file:")) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

export function pathToUri(path: string): string {
  return pathToFileURL(path).href;
}
