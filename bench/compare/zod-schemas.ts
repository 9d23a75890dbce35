/**
 * Zod mirrors of the corpus schemas (bench/corpus/baml_src), written the way a user of jsonrepair or the
 * AI SDK would write them: exact types, no coercion (`z.number().int()` for `int`, `z.enum` for enums,
 * `.nullable()` for `T?`, `z.literal([…])` for a literal union), with the same descriptions (`.describe()`) and the recursive class's name
 * (`.meta({ id })`). Unknown keys are stripped, as Zod does by default.
 */
import { z } from "zod";

const decision = z.enum(["STRONG_HIRE", "HIRE", "LEAN_REJECT", "REJECT"]).meta({ id: "Decision" });

const candidateEvaluation = z.object({
  candidate_name: z.string(),
  years_of_experience: z.number().int(),
  skills: z.array(z.string()),
  work_history: z.array(
    z.object({
      company: z.string(),
      role: z.string(),
      duration_months: z.number().int(),
      achievements: z.array(z.string()),
    }),
  ),
  decision,
  reasoning: z.string().describe("채용 결정에 대한 논리적 근거 요약"),
});

const receipt = z.object({
  merchant: z.string(),
  date: z.string().describe("ISO 8601, YYYY-MM-DD"),
  currency: z.literal(["USD", "EUR", "GBP"]),
  items: z.array(
    z.object({
      description: z.string(),
      quantity: z.number().int(),
      unit_price: z.number(),
      total: z.number(),
    }),
  ),
  subtotal: z.number(),
  tax: z.number(),
  tip: z.number().nullable(),
  total: z.number(),
  paid_by_card: z.boolean(),
});

const entities = z.array(
  z.object({
    name: z.string(),
    entity_type: z
      .enum(["PERSON", "ORGANIZATION", "LOCATION", "PRODUCT", "EVENT"])
      .meta({ id: "EntityType" }),
    mentions: z.number().int(),
    salience: z.number().nullable().describe("0 to 1; null when unsure"),
    aliases: z.array(z.string()),
  }),
);

const ticketCategory = z
  .enum(["BILLING", "TECHNICAL_ISSUE", "ACCOUNT_ACCESS", "FEATURE_REQUEST", "SHIPPING", "OTHER"])
  .meta({ id: "TicketCategory" });

interface SectionShape {
  heading: string;
  summary: string;
  subsections: SectionShape[];
}

const section: z.ZodType<SectionShape> = z
  .object({
    heading: z.string(),
    summary: z.string(),
    get subsections() {
      return z.array(section);
    },
  })
  .meta({ id: "Section" });

const documentOutline = z.object({
  title: z.string(),
  word_count: z.number().int(),
  sections: z.array(section),
});

/** Schema key (as in the corpus) → its Zod mirror. */
export const zodSchemas: Record<string, z.ZodType> = {
  resume: candidateEvaluation,
  receipt,
  entities,
  ticket: ticketCategory,
  outline: documentOutline,
};

/** The mirror for a corpus schema key; an unknown key is a bench bug. */
export function zodSchemaFor(schema: string): z.ZodType {
  const found = zodSchemas[schema];
  if (found === undefined) throw new Error(`no Zod mirror for corpus schema "${schema}"`);
  return found;
}
