/**
 * ClassifyTicket answers: the target is one enum value, so the variety is in how a model says it (bare,
 * quoted, bold in prose, its own spelling, wrapped in an object) — plus answers that name no category,
 * where the careful reading is "no value" and the right outcome is an error.
 */
import type { CaseDraft } from "../corpus-case.js";
import type { SeededRandom } from "../seeded-random.js";
import { ticketTexts } from "../word-lists.js";

const categories = ["BILLING", "TECHNICAL_ISSUE", "ACCOUNT_ACCESS", "FEATURE_REQUEST", "SHIPPING", "OTHER"];

const spoken: Record<string, string> = {
  BILLING: "Billing",
  TECHNICAL_ISSUE: "Technical Issue",
  ACCOUNT_ACCESS: "Account Access",
  FEATURE_REQUEST: "Feature Request",
  SHIPPING: "Shipping",
  OTHER: "Other",
};

/** One case per answer shape, each for a category picked at random (the ticket text matches it). */
export function ticketCases(random: SeededRandom): CaseDraft[] {
  const pickCategory = (): { category: string; ticket: string } => {
    const index = random.integer(0, categories.length - 1);
    return { category: categories[index] as string, ticket: ticketTexts[index] as string };
  };
  const drafts: CaseDraft[] = [];
  const add = (variant: string, note: string, build: (category: string, ticket: string) => string): void => {
    const { category, ticket } = pickCategory();
    drafts.push({ variant, note, answer: build(category, ticket), expected: { value: category } });
  };
  add("bare", "just the value", (category) => category);
  add("quoted", "a JSON string", (category) => JSON.stringify(category));
  add("fenced", "the value in a fence", (category) => `\`\`\`\n${category}\n\`\`\``);
  add("lowercase", "lower case", (category) => category.toLowerCase());
  add("spelled", "the model's own spelling", (category) => spoken[category] as string);
  add("kebab", "kebab case", (category) => category.toLowerCase().replaceAll("_", "-"));
  add(
    "chatty-bold",
    "reasoning, then the value in bold",
    (category, ticket) =>
      `The customer writes: "${ticket}". This is clearly about ${(spoken[category] as string).toLowerCase()}.\n\n**Category:** ${category}`,
  );
  add("chatty-spelled", "a sentence with the model's spelling", (category, ticket) => {
    return `Looking at "${ticket}", I would classify this ticket as ${spoken[category] as string}.`;
  });
  add("json-object", "wrapped in an object", (category) => `{"category": "${category}", "confidence": 0.92}`);
  add("json-object-spelled", "wrapped in an object, own spelling", (category) => {
    return `\`\`\`json\n{"category": "${spoken[category] as string}"}\n\`\`\``;
  });
  drafts.push({
    variant: "refusal",
    note: "names no category: the right outcome is an error",
    answer: "I'm sorry, but I can't determine what this ticket is about from the text provided.",
    expected: { error: "no category named" },
  });
  drafts.push({
    variant: "empty-json",
    note: "an empty object: no category, the right outcome is an error",
    answer: "```json\n{}\n```",
    expected: { error: "no category named" },
  });
  return drafts;
}
