/** CandidateEvaluation (the resume example): scales by the number of jobs in the work history. */
import type { ObjectSchema } from "../corpus-schema.js";
import type { JsonObject } from "../json-value.js";
import { createSeededRandom, type SeededRandom } from "../seeded-random.js";
import {
  achievementObjects,
  achievementOutcomes,
  achievementVerbs,
  companies,
  firstNames,
  lastNames,
  reasoningSentences,
  roles,
  skills,
} from "../word-lists.js";
import { sizeToTarget } from "./size-to-target.js";

const decisionSpellings: Record<string, string> = {
  STRONG_HIRE: "Strong Hire",
  HIRE: "Hire",
  LEAN_REJECT: "Lean Reject",
  REJECT: "reject",
};

function achievement(random: SeededRandom): string {
  const outcome = random.pick(achievementOutcomes).replace("{n}", String(random.integer(2, 90)));
  return `${random.pick(achievementVerbs)} ${random.pick(achievementObjects)}, ${outcome}`;
}

function job(random: SeededRandom): JsonObject {
  return {
    company: random.pick(companies),
    role: random.pick(roles),
    duration_months: random.integer(6, 96),
    achievements: Array.from({ length: random.integer(1, 3) }, () => achievement(random)),
  };
}

function evaluation(seed: number, jobs: number): JsonObject {
  const random = createSeededRandom(seed);
  return {
    candidate_name: `${random.pick(firstNames)} ${random.pick(lastNames)}`,
    years_of_experience: random.integer(2, 20),
    skills: random.sample(skills, random.integer(3, 6)),
    decision: random.pick(Object.keys(decisionSpellings)),
    reasoning: random.sample(reasoningSentences, random.integer(1, 3)).join(" "),
    work_history: Array.from({ length: jobs }, () => job(random)),
  };
}

/** Declaration order, which is also the order a model usually follows. */
function declared(value: JsonObject): JsonObject {
  const { candidate_name, years_of_experience, skills, work_history, decision, reasoning } = value;
  return { candidate_name, years_of_experience, skills, work_history, decision, reasoning } as JsonObject;
}

export const resumeSchema: ObjectSchema = {
  key: "resume",
  typeExpression: "CandidateEvaluation",
  functionName: "ExtractCandidateEvaluation",
  generate: (random, targetBytes) => {
    const seed = random.integer(0, 2 ** 31);
    return sizeToTarget(targetBytes, (jobs) => declared(evaluation(seed, jobs)));
  },
  preamble: (value, random) => {
    const name = (value as JsonObject).candidate_name as string;
    return random.pick([
      `Sure! Let me think about ${name} first. The resume shows steady growth, with one gap I will mention.`,
      `Here is my evaluation of ${name}'s resume, in the format you asked for.`,
      `I reviewed the resume carefully. Below is the structured report for ${name}.`,
    ]);
  },
  truncationKeyOrder: (path, keys) =>
    path === "" ? [...keys.filter((key) => key !== "reasoning"), "reasoning"] : keys,
  numbersAsStrings: (value) => {
    const years = (value as JsonObject).years_of_experience as number;
    const months = (((value as JsonObject).work_history as JsonObject[])[0] as JsonObject).duration_months;
    return [
      { path: "years_of_experience", answer: String(years - 0.5) },
      { path: "work_history[0].duration_months", answer: `${months} months` },
    ];
  },
  enumSpellings: (_value, random) => {
    const decision = random.pick(["STRONG_HIRE", "LEAN_REJECT"]);
    return [{ path: "decision", answer: decisionSpellings[decision] as string, expected: decision }];
  },
  commaSeparatedList: (value) => [
    { path: "skills", answer: ((value as JsonObject).skills as string[]).join(", ") },
  ],
  singleValueForList: (value) => {
    const first = (((value as JsonObject).work_history as JsonObject[])[0] as JsonObject)
      .achievements as string[];
    return [
      { path: "work_history[0].achievements", answer: first[0] as string, expected: [first[0] as string] },
    ];
  },
};
