/**
 * The `baml_src/` that `sapling init` writes: a working example (a class, an enum, a function), clients
 * for OpenAI and for any OpenAI-compatible server (Sapling's mock LLM server in tests, or vLLM, Ollama,
 * LM Studio), and a TypeScript generator writing `moduleFormat` (ESM, or CommonJS for a CommonJS package).
 * Paths are relative to `baml_src/`.
 */
export function initProjectFiles(
  version: string,
  moduleFormat: "esm" | "cjs" = "esm",
): Record<string, string> {
  return {
    "clients.baml": `// Clients the functions call. Keys are read from the environment when a call is made.
client<llm> GPT4oMini {
  provider openai
  options {
    model "gpt-4o-mini"
    api_key env.OPENAI_API_KEY
    temperature 0.0
  }
}

// Any OpenAI-compatible server: vLLM, Ollama, LM Studio, or Sapling's mock LLM server
// (\`startMockLlmServer\` from "sapling-llm/testing"). Use it for one call with
// \`b.EvaluateResume(text, { client: "Local" })\`.
client<llm> Local {
  provider "openai-generic"
  options {
    base_url env.LOCAL_LLM_BASE_URL
    model "local-model"
    temperature 0.0
  }
}

retry_policy TwoRetries {
  max_retries 2
  strategy {
    type exponential_backoff
    delay_ms 200
    multiplier 1.5
    max_delay_ms 2000
  }
}
`,
    "generators.baml": `// \`sapling generate\` writes the TypeScript client to ../baml_client (next to baml_src/).
generator target {
  output_type "typescript"
  output_dir "../"
  version "${version}"
  module_format "${moduleFormat}"
  default_client_mode "async"
}
`,
    "resume.baml": `// An example: turn a resume into a typed evaluation. Call it from TypeScript with
//   import { b } from "./baml_client/index.js";
//   const evaluation = await b.EvaluateResume(text);

/// How strongly to recommend the candidate.
enum Decision {
  STRONG_HIRE
  HIRE
  LEAN_REJECT
  REJECT
}

class WorkHistory {
  company string
  role string
  duration_months int
  achievements string[]
}

/// A structured evaluation of one resume.
class CandidateEvaluation {
  candidate_name string
  years_of_experience int
  skills string[]
  work_history WorkHistory[]
  decision Decision
  reasoning string @description("Two sentences on why this decision")
}

/// Evaluates a resume and recommends a hiring decision.
function EvaluateResume(resume_text: string) -> CandidateEvaluation {
  client GPT4oMini
  prompt #"
    Evaluate the candidate's resume below and produce a structured report.

    Resume:
    {{ resume_text }}

    {{ ctx.output_format }}
  "#
}

test EvaluateJane {
  functions [EvaluateResume]
  args {
    resume_text #"
      Jane Doe — 8 years building distributed systems in Rust and Go.
      Staff engineer at Streamline (2019–2024): led the Kubernetes migration.
    "#
  }
  @@assert({{ this.candidate_name|length > 0 and this.skills|length > 0 }})
}
`,
  };
}
