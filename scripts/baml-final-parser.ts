/**
 * The real BAML 0.226.2 parser (the devDependency's native addon), driven offline for the scripts that
 * compare Sapling with it: declarations plus one function per target type, each bound to a client on a
 * closed loopback port (never called), parsed with `parseLlmResponse` in final mode.
 */

export type BamlOutcome = { ok: true; value: unknown } | { ok: false; error: string };

/** BAML source giving each target type (a BAML type expression) a function of the given name. */
export function bamlTargets(declarations: string, targets: Map<string, string>): string {
  const functions = [...targets].map(
    ([type, name]) => `function ${name}() -> ${type} {\n  client OfflineClient\n  prompt #"x"#\n}`,
  );
  return `${declarations}
client<llm> OfflineClient {
  provider openai
  options {
    model "m"
    api_key "k"
    base_url "http://127.0.0.1:9/v1"
  }
}
${functions.join("\n")}`;
}

const failure = (error: unknown): BamlOutcome => ({ ok: false, error: String(error).split("\n")[0]! });

type BamlModule = typeof import("@boundaryml/baml");

/** Loads the native addon quietly (BAML logs every prompt and reply at info level by default). */
export async function loadBaml(): Promise<BamlModule> {
  process.env.BAML_LOG ??= "off";
  return import("@boundaryml/baml");
}

/**
 * A final-mode parser over one BAML source: `(function name, answer) → value or error`. A source BAML
 * refuses makes every parse an error carrying BAML's message.
 */
export function bamlFinalParser(
  baml: BamlModule,
  source: string,
): (functionName: string, text: string) => BamlOutcome {
  let runtime: InstanceType<BamlModule["BamlRuntime"]>;
  let context: InstanceType<BamlModule["BamlCtxManager"]>;
  try {
    runtime = baml.BamlRuntime.fromFiles("baml_src", { "baml_src/main.baml": source }, {});
    context = new baml.BamlCtxManager(runtime);
  } catch (error) {
    const refused = failure(error);
    return () => refused;
  }
  return (functionName, text) => {
    try {
      const value = runtime.parseLlmResponse(
        functionName,
        text,
        false,
        context.cloneContext(),
        null,
        null,
        {},
      );
      return { ok: true, value: JSON.parse(JSON.stringify(value)) };
    } catch (error) {
      return failure(error);
    }
  };
}
