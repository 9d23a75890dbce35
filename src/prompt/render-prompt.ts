import { type Ir, IrIndex, type LlmFunction, type SourceLocation } from "../ir/index.js";
import type { ChatMessage, MediaValue } from "../util/index.js";
import { mediaMarker, roleMarker } from "./chat-markers.js";
import { TemplateError } from "./errors.js";
import type { Statement } from "./jinja/ast.js";
import { Evaluator } from "./jinja/evaluator.js";
import { JinjaError } from "./jinja/jinja-error.js";
import { parseTemplate } from "./jinja/parser.js";
import { Scope } from "./jinja/scope.js";
import { Callable, toPlainData } from "./jinja/values.js";
import { type OutputFormatOptions, parseOutputFormatOptions } from "./output-format/output-format-options.js";
import { renderOutputFormat } from "./output-format/render-output-format.js";
import { lineAndColumn, type PreparedTemplate, prepareTemplate } from "./prepare-template.js";
import { splitChatMessages } from "./split-chat-messages.js";
import { builtinGlobals } from "./template-globals.js";
import { enumGlobals, toTemplateValue } from "./to-template-value.js";

/** The client a prompt is rendered for, as `ctx.client` shows it. */
export interface PromptClient {
  name: string;
  provider: string;
  /**
   * Role of text outside any `_.role(...)`. Defaults by provider as BAML does: `user` for Anthropic, Google,
   * Vertex, Bedrock and Ollama, `system` for the OpenAI family and everything else.
   */
  defaultRole?: string;
  allowedRoles?: string[];
  /** The client's options, if templates should see them (`ctx.client.options.model`). */
  options?: Record<string, unknown>;
}

export interface RenderPromptContext {
  client: PromptClient;
  /** `ctx.tags`. */
  tags?: Record<string, unknown>;
  /** Defaults for `ctx.output_format`; options given in the template override them. */
  outputFormatOptions?: OutputFormatOptions;
  /**
   * `ctx.output_format` renders as an empty string: the provider enforces the schema itself (a Sapling
   * addition, the runtime's `native` output mode).
   */
  omitOutputFormat?: boolean;
  /** Receives each text `ctx.output_format` renders, e.g. to mark it in a preview (`sapling dev`). */
  onOutputFormat?: (text: string) => void;
}

/** Parsed templates by their raw text: a function's prompt is parsed once, not on every call. */
const parsedTemplates = new Map<string, { prepared: PreparedTemplate; statements: Statement[] }>();
const PARSED_TEMPLATE_LIMIT = 500;

interface CompiledTemplate {
  prepared: PreparedTemplate;
  statements: Statement[];
  source?: SourceLocation;
}

/**
 * Renders the prompt of `functionName` with `args` into chat messages, with BAML's semantics: dedent and
 * trim, `trim_blocks`/`lstrip_blocks`, `none` prints `null`, `_.role(...)` splits messages, media arguments
 * become their own parts, template strings are callable macros, enums are globals. Template mistakes throw
 * `TemplateError` pointing at the line and column in the `.baml` file.
 */
export function renderPrompt(
  ir: Ir,
  functionName: string,
  args: Record<string, unknown>,
  context: RenderPromptContext,
): ChatMessage[] {
  const index = new IrIndex(ir);
  const fn = index.functions.get(functionName);
  if (!fn) {
    const known = [...index.functions.keys()].join(", ") || "none";
    throw new TemplateError(
      "unknown_function",
      `Unknown function "${functionName}" (functions: ${known}).`,
      1,
      1,
    );
  }
  const templates = new Map<string | undefined, CompiledTemplate>();
  const compile = (
    name: string | undefined,
    raw: string,
    source: SourceLocation | undefined,
  ): CompiledTemplate => {
    const cached = parsedTemplates.get(raw);
    const prepared = cached?.prepared ?? prepareTemplate(raw);
    const compiled: CompiledTemplate = { prepared, statements: [], ...(source ? { source } : {}) };
    templates.set(name, compiled);
    compiled.statements = cached?.statements ?? parseTemplate(prepared.text);
    if (!cached) {
      if (parsedTemplates.size >= PARSED_TEMPLATE_LIMIT) parsedTemplates.clear();
      parsedTemplates.set(raw, { prepared, statements: compiled.statements });
    }
    return compiled;
  };

  try {
    const prompt = compile(undefined, fn.prompt, fn.promptSource);
    const media: MediaValue[] = [];
    const evaluator = new Evaluator((item) => mediaMarker(item, media));
    const globals = new Scope();
    for (const [name, value] of Object.entries({ ...builtinGlobals(), ...enumGlobals(index) }))
      globals.set(name, value);
    globals.set("ctx", buildContext(ir, fn, context));
    const role = roleFunction();
    globals.set("_", { role, chat: role });
    for (const template of ir.templateStrings) {
      const compiled = compile(template.name, template.body, template.source);
      const macro: Statement = {
        kind: "macro",
        name: template.name,
        params: template.params.map((param) => ({ name: param.name })),
        body: compiled.statements,
        offset: 0,
      };
      evaluator.defineMacros([macro], globals, template.name);
    }
    const scope = globals.child();
    for (const [name, value] of Object.entries(args)) scope.set(name, value);
    for (const param of fn.params)
      scope.set(param.name, toTemplateValue(args[param.name], param.type, index));
    const rendered = evaluator.render(prompt.statements, scope);
    return splitChatMessages(rendered, defaultRoleOf(context.client), media);
  } catch (error) {
    if (error instanceof JinjaError) throw toTemplateError(error, templates, functionName);
    throw error;
  }
}

function buildContext(ir: Ir, fn: LlmFunction, context: RenderPromptContext): Record<string, unknown> {
  const defaults = context.outputFormatOptions ?? {};
  const seen = (text: string): string => {
    context.onOutputFormat?.(text);
    return text;
  };
  const outputFormat = new Callable(
    "output_format",
    ({ args, kwargs }) => {
      if (args.length > 0) {
        throw new JinjaError(
          "invalid_call",
          "ctx.output_format() takes only named options, e.g. ctx.output_format(prefix=null).",
          undefined,
        );
      }
      const options = parseOutputFormatOptions(kwargs);
      return context.omitOutputFormat
        ? ""
        : seen(renderOutputFormat(ir, fn.returnType, { ...defaults, ...options }));
    },
    () => (context.omitOutputFormat ? "" : seen(renderOutputFormat(ir, fn.returnType, defaults))),
  );
  const client = context.client;
  return {
    output_format: outputFormat,
    client: {
      name: client.name,
      provider: client.provider,
      default_role: defaultRoleOf(client),
      allowed_roles: client.allowedRoles ?? [],
      options: client.options ?? {},
    },
    tags: context.tags ?? {},
  };
}

const USER_DEFAULT_PROVIDERS = new Set(["anthropic", "google-ai", "vertex-ai", "aws-bedrock", "ollama"]);

/** The client's default role, or BAML's default for its provider. */
export function defaultRoleOf(client: PromptClient): string {
  if (client.defaultRole) return client.defaultRole;
  return USER_DEFAULT_PROVIDERS.has(client.provider) ? "user" : "system";
}

function roleFunction(): Callable {
  return new Callable("role", ({ args, kwargs }) => {
    const { role: named, ...metadata } = kwargs;
    const positional = args[0];
    if (positional !== undefined && named !== undefined) {
      throw new JinjaError(
        "invalid_call",
        `_.role() called with two roles: '${String(named)}' and '${String(positional)}'.`,
        undefined,
      );
    }
    const role = positional ?? named;
    if (typeof role !== "string" || role === "") {
      throw new JinjaError(
        "invalid_call",
        `_.role() needs a role name, e.g. _.role("user") or _.role(role="user").`,
        undefined,
      );
    }
    return roleMarker(role, toPlainData(metadata) as Record<string, unknown>);
  });
}

function toTemplateError(
  error: JinjaError,
  templates: Map<string | undefined, CompiledTemplate>,
  functionName: string,
): TemplateError {
  const template = templates.get(error.templateName) ?? templates.get(undefined);
  const offset = error.offset ?? 0;
  const text = template?.prepared.text ?? "";
  const position = lineAndColumn(text, Math.min(offset, text.length));
  let location: SourceLocation | undefined;
  if (template?.source && template.prepared) {
    const original = template.prepared.toOriginal(Math.min(offset, text.length));
    location = {
      file: template.source.file,
      line: template.source.line + original.line,
      column: original.line === 0 ? template.source.column + original.column : original.column + 1,
    };
  }
  const where = error.templateName ? `${functionName} (template_string ${error.templateName})` : functionName;
  return new TemplateError(error.code, error.message, position.line, position.column, location, where);
}
