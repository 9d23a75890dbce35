/** Receipt: scales by the number of line items; totals are consistent (2-decimal arithmetic in cents). */
import type { ObjectSchema } from "../corpus-schema.js";
import type { JsonObject } from "../json-value.js";
import { createSeededRandom } from "../seeded-random.js";
import { merchants, products } from "../word-lists.js";
import { sizeToTarget } from "./size-to-target.js";

const fromCents = (cents: number): number => cents / 100;

function receipt(seed: number, itemCount: number): JsonObject {
  const random = createSeededRandom(seed);
  const merchant = random.pick(merchants);
  const date = `2025-${String(random.integer(1, 12)).padStart(2, "0")}-${String(random.integer(1, 28)).padStart(2, "0")}`;
  const currency = random.pick(["USD", "EUR", "GBP"]);
  const paidByCard = random.chance(0.7);
  const tipPercent = random.chance(0.5) ? random.integer(5, 20) : null;
  const taxPercent = random.integer(5, 20);
  let subtotalCents = 0;
  const items = Array.from({ length: itemCount }, () => {
    const quantity = random.integer(1, 6);
    const unitCents = random.integer(50, 4999);
    subtotalCents += quantity * unitCents;
    return {
      description: random.pick(products),
      quantity,
      unit_price: fromCents(unitCents),
      total: fromCents(quantity * unitCents),
    };
  });
  const taxCents = Math.round((subtotalCents * taxPercent) / 100);
  const tipCents = tipPercent === null ? null : Math.round((subtotalCents * tipPercent) / 100);
  return {
    merchant,
    date,
    currency,
    items,
    subtotal: fromCents(subtotalCents),
    tax: fromCents(taxCents),
    tip: tipCents === null ? null : fromCents(tipCents),
    total: fromCents(subtotalCents + taxCents + (tipCents ?? 0)),
    paid_by_card: paidByCard,
  };
}

const currencySymbols: Record<string, string> = { USD: "$", EUR: "€", GBP: "£" };

export const receiptSchema: ObjectSchema = {
  key: "receipt",
  typeExpression: "Receipt",
  functionName: "ExtractReceipt",
  generate: (random, targetBytes) => {
    const seed = random.integer(0, 2 ** 31);
    return sizeToTarget(targetBytes, (count) => receipt(seed, count));
  },
  preamble: (value, random) => {
    const merchant = (value as JsonObject).merchant as string;
    return random.pick([
      `Here's the receipt from ${merchant}, transcribed line by line.`,
      `I extracted every line item from the ${merchant} receipt. Note that the tip line was handwritten.`,
      `Sure — below is the receipt as structured data.`,
    ]);
  },
  // Items last, description last inside an item: a cut answer ends inside the last item's description.
  truncationKeyOrder: (path, keys) => {
    if (path === "") return [...keys.filter((key) => key !== "items"), "items"];
    return keys.includes("description")
      ? [...keys.filter((key) => key !== "description"), "description"]
      : keys;
  },
  numbersAsStrings: (value) => {
    const object = value as JsonObject;
    const symbol = currencySymbols[object.currency as string] as string;
    const first = (object.items as JsonObject[])[0] as JsonObject;
    return [
      { path: "items[0].quantity", answer: String(first.quantity) },
      { path: "items[0].unit_price", answer: `${symbol}${(first.unit_price as number).toFixed(2)}` },
      {
        path: "total",
        answer: `${symbol}${(object.total as number).toLocaleString("en-US", { minimumFractionDigits: 2 })}`,
      },
    ];
  },
  enumSpellings: (value) => [
    { path: "currency", answer: ((value as JsonObject).currency as string).toLowerCase() },
  ],
};
