/**
 * The one registry of diagnostic codes. Each entry keeps its wording (message and hint templates) apart
 * from the checks that raise it, so codes stay stable and messages can be improved in one place.
 * Codes are grouped by hundreds: 00 syntax, 01 types and names, 02 attributes, 03 functions, 04 clients,
 * 05 retry policies, 06 generators, 07 tests, 08 configuration values, 09 template strings.
 * Never reuse or renumber a code; add new ones at the end of their group.
 */
import type { Severity } from "./diagnostic.js";

interface CodeDefinition<Args> {
  code: string;
  severity: Severity;
  message: (args: Args) => string;
  hint?: (args: Args) => string | undefined;
}

function define<Args>(definition: CodeDefinition<Args>): CodeDefinition<Args> {
  return definition;
}

type Named = { name: string };
type Suggested = { name: string; suggestion?: string };
const sampleFiles: Record<string, string> = { image: "photo.png", audio: "voice.mp3", video: "clip.mp4" };
const didYouMean = (args: Suggested): string | undefined =>
  args.suggestion === undefined ? undefined : `did you mean "${args.suggestion}"?`;

export const diagnosticCodes = {
  // 00 — syntax
  "unexpected-token": define<{ expected: string; found: string }>({
    code: "E0001",
    severity: "error",
    message: (args) => `Expected ${args.expected}, found ${args.found}.`,
  }),
  "unterminated-string": define<Record<string, never>>({
    code: "E0002",
    severity: "error",
    message: () => "This string is not closed before the end of the line.",
    hint: () => 'add the closing `"`, or use a raw string `#"…"#` for text over several lines',
  }),
  "unterminated-raw-string": define<{ closing: string }>({
    code: "E0003",
    severity: "error",
    message: (args) => `This raw string is never closed; expected \`${args.closing}\`.`,
    hint: (args) => `end the text with \`${args.closing}\``,
  }),
  "unterminated-block-comment": define<Record<string, never>>({
    code: "E0004",
    severity: "error",
    message: () => "This block comment `{//` is never closed.",
    hint: () => "end the comment with `//}`",
  }),
  "unknown-declaration": define<Suggested>({
    code: "E0005",
    severity: "error",
    message: (args) => `"${args.name}" does not start a declaration.`,
    hint: (args) =>
      didYouMean(args) ??
      "declarations start with class, enum, type, function, client<llm>, retry_policy, generator, test or template_string",
  }),
  "invalid-character": define<{ character: string }>({
    code: "E0006",
    severity: "error",
    message: (args) => `Unexpected character ${JSON.stringify(args.character)}.`,
  }),
  "unterminated-expression": define<Record<string, never>>({
    code: "E0007",
    severity: "error",
    message: () => "This `{{` expression is never closed.",
    hint: () => "end the expression with `}}`",
  }),
  "nesting-too-deep": define<{ limit: number }>({
    code: "E0008",
    severity: "error",
    message: (args) => `Nesting is deeper than ${args.limit} levels.`,
    hint: () => "split the value or type into named declarations",
  }),

  // 01 — types and names
  "unknown-type": define<Suggested>({
    code: "E0101",
    severity: "error",
    message: (args) => `Unknown type "${args.name}".`,
    hint: (args) =>
      didYouMean(args) ??
      "declare it with `class`, `enum` or `type`, or use string, int, float, bool or null",
  }),
  "duplicate-declaration": define<{ name: string; kind: string }>({
    code: "E0102",
    severity: "error",
    message: (args) => `"${args.name}" is declared more than once.`,
    hint: (args) => `rename one of the ${args.kind} declarations; names share one namespace per kind`,
  }),
  "duplicate-field": define<{ name: string; owner: string }>({
    code: "E0103",
    severity: "error",
    message: (args) => `Field "${args.name}" appears more than once in "${args.owner}".`,
    hint: () => "remove or rename one of them",
  }),
  "duplicate-enum-value": define<{ name: string; owner: string }>({
    code: "E0104",
    severity: "error",
    message: (args) => `Value "${args.name}" appears more than once in enum "${args.owner}".`,
    hint: () => "remove or rename one of them",
  }),
  "duplicate-parameter": define<{ name: string; owner: string }>({
    code: "E0105",
    severity: "error",
    message: (args) => `Parameter "${args.name}" appears more than once in "${args.owner}".`,
    hint: () => "give each parameter its own name",
  }),
  "invalid-map-key": define<{ type: string }>({
    code: "E0106",
    severity: "error",
    message: (args) => `Invalid map key type: ${args.type}.`,
    hint: () => "use string, an enum, or a union of string literals as the key type",
  }),
  "alias-cycle": define<{ cycle: string }>({
    code: "E0107",
    severity: "error",
    message: (args) => `Type alias cycle: ${args.cycle}.`,
    hint: () => "a type alias may refer to itself only inside a list (`T[]`) or a map (`map<string, T>`)",
  }),
  "media-in-output": define<{ media: string; path: string }>({
    code: "E0108",
    severity: "error",
    message: (args) =>
      `The return type contains the media type ${args.media}${args.path ? ` (at ${args.path})` : ""}; models cannot return media.`,
    hint: () =>
      "media types (image, audio, pdf, video) are inputs only; return a string (a URL or a description)",
  }),
  "map-arity": define<{ count: number }>({
    code: "E0109",
    severity: "error",
    message: (args) => `map takes exactly two type arguments (key and value), found ${args.count}.`,
    hint: () => "write map<string, ValueType>",
  }),
  "reserved-name": define<Named>({
    code: "E0110",
    severity: "error",
    message: (args) => `"${args.name}" is a built-in or reserved type name and cannot be declared.`,
    hint: () => "choose another name",
  }),
  "unsupported-type": define<{ what: string }>({
    code: "E0111",
    severity: "error",
    message: (args) => `${args.what} are not supported.`,
    hint: () => "use a class with named fields instead",
  }),
  "class-cycle": define<{ cycle: string }>({
    code: "E0112",
    severity: "error",
    message: (args) => `These classes contain each other through required fields: ${args.cycle}.`,
    hint: () => "no value could ever be complete; make one of the fields optional (`T?`) or a list (`T[]`)",
  }),
  "keyword-field-name": define<{ name: string; owner: string }>({
    code: "E0115",
    severity: "error",
    message: (args) =>
      `Field "${args.name}" in "${args.owner}" is a reserved word; BAML does not allow it as a field name.`,
    hint: (args) => `rename the field and keep the name the model sees with @alias("${args.name}")`,
  }),
  "lowercase-name": define<{ name: string; kind: string }>({
    code: "E0116",
    severity: "error",
    message: (args) => `The ${args.kind} name "${args.name}" must start with an uppercase letter.`,
    hint: (args) =>
      args.kind === "enum value"
        ? `BAML enum values start with an uppercase letter; rename it and keep the name the model sees with @alias("${args.name}")`
        : "BAML requires it; rename the declaration",
  }),
  "not-a-type": define<{ name: string; kind: string }>({
    code: "E0113",
    severity: "error",
    message: (args) => `"${args.name}" is a ${args.kind}, not a type.`,
    hint: () => "types are classes, enums, type aliases and the built-in types",
  }),
  "alias-collision": define<{ owner: string; first: string; second: string; firstShown: string }>({
    code: "E0114",
    severity: "error",
    message: (args) =>
      `"${args.first}" and "${args.second}" in "${args.owner}" would both be shown to the model as "${args.firstShown}".`,
    hint: () => "give each one a distinct @alias; the parser could not tell their values apart",
  }),
  "alias-case-collision": define<{
    owner: string;
    first: string;
    second: string;
    firstShown: string;
    secondShown: string;
  }>({
    code: "W0117",
    severity: "warning",
    message: (args) =>
      `"${args.first}" and "${args.second}" in "${args.owner}" are shown to the model as "${args.firstShown}" and "${args.secondShown}", which differ only in case.`,
    hint: () =>
      "an answer written exactly as one of them names that value; written in any other case it names both, and parsing fails rather than guess. A distinct @alias avoids this",
  }),

  // 02 — attributes
  "unknown-attribute": define<{ name: string; block: boolean; suggestion?: string }>({
    code: "E0201",
    severity: "error",
    message: (args) => `Unknown attribute "${args.block ? "@@" : "@"}${args.name}".`,
    hint: (args) => (args.suggestion === undefined ? undefined : `did you mean "${args.suggestion}"?`),
  }),
  "attribute-not-allowed": define<{ attribute: string; place: string; allowed: string }>({
    code: "E0202",
    severity: "error",
    message: (args) => `"${args.attribute}" cannot be used on ${args.place}.`,
    hint: (args) => (args.allowed ? `allowed here: ${args.allowed}` : "no attributes are allowed here"),
  }),
  "invalid-attribute-arguments": define<{ attribute: string; expected: string }>({
    code: "E0203",
    severity: "error",
    message: (args) => `"${args.attribute}" expects ${args.expected}.`,
  }),
  "duplicate-attribute": define<{ attribute: string }>({
    code: "E0204",
    severity: "error",
    message: (args) => `"${args.attribute}" is given more than once.`,
    hint: () => "keep one",
  }),
  "skip-on-required-field": define<Named>({
    code: "E0205",
    severity: "error",
    message: (args) => `Field "${args.name}" is skipped with @skip but is not optional.`,
    hint: () => "a skipped field is never filled in; make its type optional (`T?`) or remove @skip",
  }),
  "check-without-label": define<Record<string, never>>({
    code: "E0206",
    severity: "error",
    message: () => "@check needs a label before the expression.",
    hint: () => "write @check(label_name, {{ this > 0 }}); labels name the result in `Checked<T>`",
  }),
  "attribute-without-effect": define<{ attribute: string; place: string }>({
    code: "W0207",
    severity: "warning",
    message: (args) => `"${args.attribute}" has no effect on ${args.place}.`,
    hint: () => "BAML accepts it here and so does Sapling, but it changes nothing; remove it",
  }),

  // 03 — functions
  "unknown-client": define<Suggested>({
    code: "E0301",
    severity: "error",
    message: (args) => `Unknown client "${args.name}".`,
    hint: (args) =>
      didYouMean(args) ?? 'declare it with `client<llm> Name { … }`, or use the "provider/model" shorthand',
  }),
  "missing-function-client": define<Named>({
    code: "E0302",
    severity: "error",
    message: (args) => `Function "${args.name}" has no client.`,
    hint: () => 'add `client MyClient` or `client "openai/gpt-4o-mini"` to the function body',
  }),
  "missing-prompt": define<Named>({
    code: "E0303",
    severity: "error",
    message: (args) => `Function "${args.name}" has no prompt.`,
    hint: () => 'add `prompt #"…"#` to the function body',
  }),
  "unknown-function-property": define<Suggested>({
    code: "E0304",
    severity: "error",
    message: (args) => `Functions have no property "${args.name}".`,
    hint: (args) => didYouMean(args) ?? "a function body has `client` and `prompt`",
  }),
  // E0305 (unknown function in a test) became W0716: BAML only warns, so a test naming one is skipped.

  "unknown-prompt-variable": define<{ name: string; owner: string; suggestion?: string }>({
    code: "W0307",
    severity: "warning",
    message: (args) => `The prompt of "${args.owner}" uses "${args.name}", which is not defined.`,
    hint: (args) =>
      didYouMean(args) ??
      "prompts can use the parameters, ctx, _, template strings, enums and names they set themselves",
  }),
  "skipped-expression-function": define<Named>({
    code: "W0306",
    severity: "warning",
    message: (args) =>
      `Function "${args.name}" is an expression function (BAML's experimental workflows); Sapling skips it and leaves it out of the generated client.`,
    hint: () =>
      "write the logic in TypeScript and call the LLM functions from it; tests that name this function are skipped too",
  }),

  // 04 — clients
  "unknown-provider": define<Suggested>({
    code: "E0401",
    severity: "error",
    message: (args) => `Unknown provider "${args.name}".`,
    hint: (args) =>
      didYouMean(args) ??
      "known providers: openai, openai-generic, openai-responses, openai-transcriptions, azure-openai, anthropic, google-ai, vertex-ai, aws-bedrock, ollama, openrouter, fallback, round-robin",
  }),
  "missing-client-option": define<{ client: string; provider: string; option: string; why: string }>({
    code: "E0402",
    severity: "error",
    message: (args) => `Client "${args.client}" (${args.provider}) is missing the option "${args.option}".`,
    hint: (args) => args.why,
  }),
  "missing-model": define<{ client: string; provider: string; option: string; why: string }>({
    code: "W0408",
    severity: "warning",
    message: (args) =>
      `Client "${args.client}" (${args.provider}) names no ${args.option}; calls fail unless one is given at call time.`,
    hint: (args) => args.why,
  }),
  "unknown-retry-policy": define<Suggested>({
    code: "E0403",
    severity: "error",
    message: (args) => `Unknown retry policy "${args.name}".`,
    hint: (args) => didYouMean(args) ?? "declare it with `retry_policy Name { max_retries 2 }`",
  }),
  "missing-provider": define<Named>({
    code: "E0404",
    severity: "error",
    message: (args) => `Client "${args.name}" has no provider.`,
    hint: () => "add `provider openai` (or anthropic, google-ai, openai-generic, …)",
  }),
  "unknown-client-property": define<Suggested>({
    code: "E0405",
    severity: "error",
    message: (args) => `Clients have no property "${args.name}".`,
    hint: (args) =>
      didYouMean(args) ??
      "a client has `provider`, `retry_policy` and `options { … }`; model settings go in options",
  }),
  "strategy-cycle": define<{ cycle: string }>({
    code: "E0406",
    severity: "error",
    message: (args) => `Client strategies refer to each other in a cycle: ${args.cycle}.`,
    hint: () => "a fallback or round-robin client cannot contain itself",
  }),
  "empty-strategy": define<Named>({
    code: "E0407",
    severity: "error",
    message: (args) => `Client "${args.name}" has an empty strategy.`,
    hint: () => "list at least one client: strategy [ClientA, ClientB]",
  }),
  "env-with-trailing-text": define<{ name: string; text: string }>({
    code: "W0409",
    severity: "warning",
    message: (args) =>
      `Text follows env.${args.name} on the same line, so this is not an environment reference: the value sent is the literal text ${JSON.stringify(args.text)}.`,
    hint: (args) =>
      `BAML reads it the same way; write env.${args.name} alone to read the variable, or the value alone`,
  }),
  "invalid-typed-option": define<{ client: string; option: string; expected: string; found: string }>({
    code: "W0411",
    severity: "warning",
    message: (args) =>
      `${args.option} of client "${args.client}" expects ${args.expected}, found ${args.found}; every call with it fails.`,
    hint: () =>
      "typed: max_tokens (a positive whole number), temperature and top_p (numbers), stop_sequences (a list of strings); an env.NAME value is read at call time, a numeric string as its number",
  }),

  // 05 — retry policies
  "invalid-retry-strategy": define<{ found: string; suggestion?: string }>({
    code: "E0501",
    severity: "error",
    message: (args) => `Unknown retry strategy type "${args.found}".`,
    hint: (args) =>
      args.suggestion === undefined
        ? "use `constant_delay` or `exponential_backoff`"
        : `did you mean "${args.suggestion}"?`,
  }),
  "missing-max-retries": define<Named>({
    code: "E0502",
    severity: "error",
    message: (args) => `Retry policy "${args.name}" has no max_retries.`,
    hint: () => "add `max_retries 2` (the number of attempts after the first)",
  }),
  "unknown-retry-property": define<{ name: string; allowed: string; suggestion?: string }>({
    code: "E0503",
    severity: "error",
    message: (args) => `"${args.name}" is not a retry policy setting here.`,
    hint: (args) => didYouMean(args) ?? `allowed: ${args.allowed}`,
  }),
  "ignored-retry-strategy-property": define<{ name: string; allowed: string; suggestion?: string }>({
    code: "W0504",
    severity: "warning",
    message: (args) => `"${args.name}" is not a retry strategy setting; it is ignored, as BAML ignores it.`,
    hint: (args) => didYouMean(args) ?? `the strategy settings are: ${args.allowed}`,
  }),

  // 06 — generators
  "invalid-generator-field": define<Suggested>({
    code: "E0601",
    severity: "error",
    message: (args) => `Generators have no field "${args.name}".`,
    hint: (args) =>
      didYouMean(args) ??
      "allowed: output_type, output_dir, version, module_format, default_client_mode, on_generate, client_package_name",
  }),
  "invalid-generator-value": define<{ field: string; found: string; allowed: string; suggestion?: string }>({
    code: "E0602",
    severity: "error",
    message: (args) => `"${args.found}" is not a valid ${args.field}.`,
    hint: (args) =>
      didYouMean({ name: args.found, suggestion: args.suggestion }) ?? `allowed: ${args.allowed}`,
  }),
  "missing-generator-field": define<{ name: string; field: string }>({
    code: "E0603",
    severity: "error",
    message: (args) => `Generator "${args.name}" has no ${args.field}.`,
    hint: (args) => (args.field === "output_type" ? 'add `output_type "typescript"`' : undefined),
  }),
  "unsupported-output-type": define<{ found: string }>({
    code: "W0604",
    severity: "warning",
    message: (args) =>
      `Sapling only generates TypeScript clients; output_type "${args.found}" will be skipped.`,
    hint: () => 'use output_type "typescript"',
  }),

  // 07 — tests
  "unknown-test-argument": define<{ name: string; functionName: string; suggestion?: string }>({
    code: "W0701",
    severity: "warning",
    message: (args) =>
      `Function "${args.functionName}" has no parameter "${args.name}"; the test does not pass it to this function.`,
    hint: (args) => didYouMean(args),
  }),
  "missing-test-functions": define<Named>({
    code: "E0702",
    severity: "error",
    message: (args) => `Test "${args.name}" names no function.`,
    hint: () => "add `functions [MyFunction]`",
  }),
  "unknown-test-property": define<Suggested>({
    code: "E0703",
    severity: "error",
    message: (args) => `Tests have no property "${args.name}".`,
    hint: (args) => didYouMean(args) ?? "a test has `functions`, `args` and `type_builder`",
  }),
  "missing-test-argument": define<{ name: string; functionName: string }>({
    code: "W0704",
    severity: "warning",
    message: (args) =>
      `Test gives no value for "${args.name}", a required parameter of "${args.functionName}".`,
    hint: (args) => `add \`${args.name} …\` to args`,
  }),
  "not-dynamic": define<{ name: string; kind: string }>({
    code: "E0705",
    severity: "error",
    message: (args) => `${args.kind} "${args.name}" is extended here but is not marked @@dynamic.`,
    hint: () => "add @@dynamic to the declaration to allow extending it at call time",
  }),
  "dynamic-outside-type-builder": define<Record<string, never>>({
    code: "E0706",
    severity: "error",
    message: () => "`dynamic` declarations are only allowed inside a test's type_builder block.",
    hint: () => "mark the declaration @@dynamic instead, and extend it in a test's type_builder",
  }),
  "invalid-type-builder-entry": define<Record<string, never>>({
    code: "E0707",
    severity: "error",
    message: () => "A type_builder block may contain only class, enum, type and dynamic declarations.",
  }),
  "dynamic-kind-mismatch": define<{ name: string; target: string; adds: string }>({
    code: "E0709",
    severity: "error",
    message: (args) => `"${args.name}" is ${args.target}, but this dynamic block adds ${args.adds}.`,
    hint: () => "class fields are written `name Type`; enum values are bare names",
  }),
  "test-argument-type": define<{ path: string; expected: string; found: string }>({
    code: "W0710",
    severity: "warning",
    message: (args) => `Test argument "${args.path}" should be ${args.expected}, found ${args.found}.`,
    hint: () =>
      "the test would send a value the function does not declare; fix the value or the parameter type",
  }),
  "test-argument-field": define<{ path: string; field: string; className: string; suggestion?: string }>({
    code: "W0711",
    severity: "warning",
    message: (args) =>
      `Test argument "${args.path}" is a ${args.className}, which has no field "${args.field}".`,
    hint: (args) => (args.suggestion === undefined ? undefined : `did you mean "${args.suggestion}"?`),
  }),
  "invalid-media-argument": define<{ name: string; media: string; problem: string }>({
    code: "E0708",
    severity: "error",
    message: (args) => `Argument "${args.name}" has type ${args.media}, but ${args.problem}.`,
    hint: (args) =>
      args.media === "pdf"
        ? 'write { file "doc.pdf" } (relative to this file) or { base64 "…" media_type "application/pdf" }'
        : `write { file "${sampleFiles[args.media] ?? "file"}" } (relative to this file), { url "https://…" } or { base64 "…" media_type "${args.media}/…" }`,
  }),
  "duplicate-test": define<{ name: string; functionName: string }>({
    code: "E0713",
    severity: "error",
    message: (args) => `Test "${args.name}" is already defined for function "${args.functionName}".`,
    hint: () => "rename one of the tests; tests of one name may only test different functions",
  }),
  "test-skips-expression-function": define<{ name: string; functionName: string }>({
    code: "W0714",
    severity: "warning",
    message: (args) =>
      `Test "${args.name}" names "${args.functionName}", an expression function Sapling skips; the test does not run it.`,
    hint: () => "BAML's expression functions are experimental and left out of the generated client",
  }),
  "test-unknown-function": define<{ name: string; functionName: string; suggestion?: string }>({
    code: "W0716",
    severity: "warning",
    message: (args) =>
      `Test "${args.name}" names "${args.functionName}", which is not a function; the test skips it.`,
    hint: (args) =>
      didYouMean(args) ?? "BAML accepts this too (with a warning); remove the name or declare the function",
  }),
  "repeated-test-argument": define<Named>({
    code: "W0717",
    severity: "warning",
    message: (args) => `Test argument "${args.name}" is given more than once; the last value is used.`,
    hint: () => "BAML also keeps the last one; remove the others",
  }),
  "template-string-test-argument": define<{ name: string; template: string }>({
    code: "W0715",
    severity: "warning",
    message: (args) =>
      `Test argument "${args.name}" calls the template string ${args.template}; Sapling passes the text as written, unrendered.`,
    hint: () =>
      "BAML renders the template string first; write the rendered text as the argument to get the same test",
  }),
  "media-argument-not-a-source": define<{ name: string; media: string }>({
    code: "W0712",
    severity: "warning",
    message: (args) =>
      `Argument "${args.name}" has type ${args.media} but is given a plain value; the test cannot load it.`,
    hint: (args) =>
      `write { file "${sampleFiles[args.media] ?? "file"}" } (relative to this file), { url "https://…" } or { base64 "…" media_type "${args.media}/…" }`,
  }),

  // 08 — configuration values
  "duplicate-key": define<Named>({
    code: "E0801",
    severity: "error",
    message: (args) => `"${args.name}" is given more than once.`,
    hint: () => "keep one",
  }),
  "invalid-value": define<{ key: string; expected: string; found: string }>({
    code: "E0802",
    severity: "error",
    message: (args) => `"${args.key}" expects ${args.expected}, found ${args.found}.`,
  }),

  // 09 — template strings
  "missing-template-body": define<Named>({
    code: "E0901",
    severity: "error",
    message: (args) => `Template string "${args.name}" has no body.`,
    hint: () => 'write template_string Name(args) #"…"#',
  }),
} as const;

export type DiagnosticName = keyof typeof diagnosticCodes;
export type DiagnosticArgs<Name extends DiagnosticName> = Parameters<
  (typeof diagnosticCodes)[Name]["message"]
>[0];
