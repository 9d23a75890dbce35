/**
 * `npm run bench -- sap`: final-parse time per answer for 0.5 KB to 1 MB answers, clean / fenced / messy,
 * and, on valid JSON, the cost relative to the floor any parser pays: `JSON.parse` plus a strict walk of
 * the type (what a schema validator does). Answers are generated here from one seeded order schema.
 */

import type { Ir, Type } from "../src/ir/index.js";
import { IrIndex } from "../src/ir/index.js";
import { compile, parseTypeExpression } from "../src/language/index.js";
import { parseValue } from "../src/sap/index.js";

/** The order schema every answer of this bench is parsed for. */
export const orderSchema = `
enum Status {
  ACTIVE
  SHIPPED
  CANCELLED
}

class LineItem {
  sku string
  description string
  quantity int
  unit_price float
  tags string[]
  gift bool?
}

class Order {
  id string
  customer string
  status Status
  items LineItem[]
  notes string?
}
`;

const sizes: [label: string, bytes: number][] = [
  ["0.5 KB", 512],
  ["2 KB", 2_048],
  ["20 KB", 20_480],
  ["200 KB", 204_800],
  ["1 MB", 1_048_576],
];

interface LineItem {
  sku: string;
  description: string;
  quantity: number;
  unit_price: number;
  tags: string[];
  gift: boolean | null;
}

const words = [
  "green tea",
  "oat milk",
  "사과",
  "croissant",
  "espresso beans",
  "🍰 cake",
  "filter papers",
  "mug",
];

/** Deterministic items until the compact JSON reaches the size. */
export function orderOfSize(bytes: number): {
  id: string;
  customer: string;
  status: string;
  items: LineItem[];
  notes: string;
} {
  const order = {
    id: "ord-1",
    customer: "Kim Minjun",
    status: "SHIPPED",
    items: [] as LineItem[],
    notes: "leave at door",
  };
  let size = JSON.stringify(order).length;
  for (let index = 0; size < bytes; index++) {
    const item: LineItem = {
      sku: `SKU-${1000 + index}`,
      description: `${words[index % words.length]} (${index % 7} pack)`,
      quantity: (index % 5) + 1,
      unit_price: Math.round(((index * 37) % 9000) + 99) / 100,
      tags: index % 3 === 0 ? ["gift", "fragile"] : ["standard"],
      gift: index % 4 === 0 ? true : null,
    };
    order.items.push(item);
    size += JSON.stringify(item).length + 1;
  }
  return order;
}

function fenced(value: unknown): string {
  return `Here is the order you asked for:\n\n\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\`\n\nLet me know if anything is missing.`;
}

/** Prose, a fence, bare keys, single quotes, trailing commas, comments, numbers as strings, enum spelling. */
export function messy(value: ReturnType<typeof orderOfSize>): string {
  const items = value.items.map((item, index) => {
    const tags = item.tags.map((tag) => `'${tag}'`).join(", ");
    const price = index % 2 === 0 ? `"$${item.unit_price}"` : String(item.unit_price);
    return `    {sku: '${item.sku}', description: '${item.description}', quantity: "${item.quantity}", unit_price: ${price}, tags: [${tags},], gift: ${item.gift === null ? "None" : "True"},}, // #${index}`;
  });
  return [
    "Sure! I went through the order line by line; totals are approximate.",
    "```json",
    "{",
    `  id: '${value.id}',`,
    `  customer: 'Kim Minjun',`,
    "  status: 'Shipped',",
    "  items: [",
    ...items,
    "  ],",
    `  notes: 'leave at door',`,
    "}",
    "```",
    "Anything else?",
  ].join("\n");
}

/** A strict validating walk of the type over a JSON.parse result: the floor for any schema parser. */
function strictWalk(type: Type, value: unknown, index: IrIndex): unknown {
  switch (type.kind) {
    case "primitive":
      if (type.name === "string" && typeof value === "string") return value;
      if (type.name === "int" && Number.isInteger(value)) return value;
      if (type.name === "float" && typeof value === "number") return value;
      if (type.name === "bool" && typeof value === "boolean") return value;
      if (type.name === "null" && value === null) return value;
      throw new Error(`expected ${type.name}`);
    case "optional":
      return value === null || value === undefined ? null : strictWalk(type.inner, value, index);
    case "enum":
      if (index.getEnum(type.name).values.some((entry) => entry.name === value)) return value;
      throw new Error("bad enum");
    case "list":
      if (!Array.isArray(value)) throw new Error("expected list");
      return value.map((item) => strictWalk(type.item, item, index));
    case "class": {
      const record = value as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const field of index.getClass(type.name).fields)
        out[field.name] = strictWalk(field.type, record[field.name], index);
      return out;
    }
    default:
      throw new Error(`strictWalk: ${type.kind} not used by this benchmark`);
  }
}

/** Median milliseconds per call, repeating until about 300 ms were spent (at least 5 runs). */
function measure(run: () => void): number {
  run();
  const times: number[] = [];
  const deadline = performance.now() + 300;
  while (times.length < 5 || (performance.now() < deadline && times.length < 2000)) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  times.sort((left, right) => left - right);
  return times[Math.floor(times.length / 2)]!;
}

function format(milliseconds: number): string {
  return milliseconds < 1 ? `${(milliseconds * 1000).toFixed(0)} µs` : `${milliseconds.toFixed(2)} ms`;
}

export async function benchSap(): Promise<string> {
  const { ir } = compile({ "order.baml": orderSchema });
  if (!ir) throw new Error("bench/sap.ts: the order schema does not compile");
  const type = parseTypeExpression("Order", ir as Ir).type as Type;
  const index = new IrIndex(ir);
  const rows: string[] = [];
  for (const [label, bytes] of sizes) {
    const order = orderOfSize(bytes);
    const clean = JSON.stringify(order);
    const answers = { clean, fenced: fenced(order), messy: messy(order) };
    for (const [variant, text] of Object.entries(answers)) {
      const parsed = parseValue(text, type, index).value as { items: unknown[] };
      if (parsed.items.length !== order.items.length)
        throw new Error(`bench/sap.ts: ${variant} ${label} lost items`);
    }
    const sap = Object.fromEntries(
      Object.entries(answers).map(([variant, text]) => [
        variant,
        measure(() => parseValue(text, type, index)),
      ]),
    ) as Record<keyof typeof answers, number>;
    const floor = measure(() => strictWalk(type, JSON.parse(clean), index));
    const megabytesPerSecond = (answers.messy.length / 1_048_576 / (sap.messy / 1000)).toFixed(1);
    rows.push(
      `| ${label} | ${order.items.length} | ${format(sap.clean)} | ${format(floor)} | ${(sap.clean / floor).toFixed(2)}× | ${format(sap.fenced)} | ${format(sap.messy)} | ${megabytesPerSecond} MB/s |`,
    );
  }
  return [
    "## Schema-Aligned Parser (final parse)",
    "",
    "Time per answer (median) for `parseValue` on an `Order` with line items, from generated answers of",
    "each size: **clean** (compact valid JSON), **fenced** (prose + a ```json fence with indented JSON +",
    "prose) and **messy** (prose, a fence, bare keys, single quotes, trailing commas, `//` comments, numbers",
    'as strings, `"$4.50"` prices, Python `None`/`True`, `"Shipped"` for `SHIPPED`). The floor is',
    "`JSON.parse` plus a strict walk of the type over the clean answer (what a validator costs); the ratio",
    "is clean / floor. Source: `bench/sap.ts`.",
    "",
    "| answer | items | clean | JSON.parse + walk | ratio | fenced | messy | messy throughput |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
    ...rows,
  ].join("\n");
}
