/**
 * Builds the whole corpus from fixed seeds: every object schema in every variant at 0.5 KB and 2 KB, the
 * size-series variants at 20 KB and 200 KB, and the classification answers. Each (schema, size, variant)
 * draws from its own seed, so adding a variant or a size never changes the other cases.
 */
import { answerVariants, sizeSeriesVariants } from "./answer-variants.js";
import { type CorpusCase, type CorpusSize, sizeBytes } from "./corpus-case.js";
import type { ObjectSchema } from "./corpus-schema.js";
import { entitiesSchema } from "./schemas/entities-schema.js";
import { outlineSchema } from "./schemas/outline-schema.js";
import { receiptSchema } from "./schemas/receipt-schema.js";
import { resumeSchema } from "./schemas/resume-schema.js";
import { ticketCases } from "./schemas/ticket-cases.js";
import { createSeededRandom, type SeededRandom } from "./seeded-random.js";

export const objectSchemas: readonly ObjectSchema[] = [
  resumeSchema,
  receiptSchema,
  entitiesSchema,
  outlineSchema,
];

/** The classification schema, which has no size series (its answer is one word). */
export const ticketSchema = {
  key: "ticket",
  typeExpression: "TicketCategory",
  functionName: "ClassifyTicket",
};

/** FNV-1a over the text: a stable seed per name. */
function seedOf(name: string): number {
  let hash = 0x811c9dc5;
  for (const character of name) {
    hash ^= character.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

const randomFor = (name: string): SeededRandom => createSeededRandom(seedOf(name));

function casesAt(
  schema: ObjectSchema,
  size: CorpusSize,
  variantNames: readonly string[] | "all",
): CorpusCase[] {
  const value = schema.generate(randomFor(`${schema.key}/${size}`), sizeBytes[size]);
  const variants =
    variantNames === "all"
      ? answerVariants
      : answerVariants.filter((variant) => variantNames.includes(variant.name));
  return variants.flatMap((variant) => {
    const draft = variant.build(schema, value, randomFor(`${schema.key}/${size}/${variant.name}`));
    if (draft === undefined) return [];
    const { key: schemaKey, functionName, typeExpression } = schema;
    return [
      {
        ...draft,
        id: `${schemaKey}-${draft.variant}-${size}`,
        schema: schemaKey,
        functionName,
        typeExpression,
        size,
      },
    ];
  });
}

/** The cases of the given sizes (all sizes when omitted), in a stable order. */
export function buildCorpus(sizes: readonly CorpusSize[] = ["0.5k", "2k", "20k", "200k"]): CorpusCase[] {
  const cases: CorpusCase[] = [];
  for (const schema of objectSchemas) {
    for (const size of sizes) {
      const every = size === "0.5k" || size === "2k";
      cases.push(...casesAt(schema, size, every ? "all" : sizeSeriesVariants));
    }
  }
  if (sizes.includes("0.5k")) {
    for (const draft of ticketCases(randomFor("ticket"))) {
      const { functionName, typeExpression } = ticketSchema;
      const id = `ticket-${draft.variant}-0.5k`;
      cases.push({ ...draft, id, schema: "ticket", functionName, typeExpression, size: "0.5k" });
    }
  }
  return cases;
}
