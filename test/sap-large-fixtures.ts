/**
 * Writes the large answers of test/fixtures/sap/large.cases (20 KB+, 200+ items): the expected values are
 * built from the same generated data, never by the parser, so the conformance table checks the parser
 * against an independent oracle. Deterministic; re-run with `npx tsx test/sap-large-fixtures.ts`.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";

const folder = join(import.meta.dirname, "fixtures", "sap", "large");
const statuses = ["ACTIVE", "INACTIVE", "PENDING_REVIEW", "InProgress"];
const words = [
  "tea",
  "coffee",
  "밀크티",
  "scone",
  "croissant",
  "bagel",
  "주스",
  "muffin",
  "cake 🍰",
  "water",
];

interface Item {
  name: string;
  quantity: number;
  price: number;
}

function items(count: number, seed: number): Item[] {
  return Array.from({ length: count }, (_, index) => ({
    name: `${words[(index * 7 + seed) % words.length]} #${index}`,
    quantity: ((index * 13 + seed) % 9) + 1,
    price: Math.round((((index * 37 + seed) % 5000) / 100) * 100) / 100,
  }));
}

function write(name: string, text: string): void {
  writeFileSync(join(folder, name), text);
}

// 1. Clean: an order with 250 items, valid JSON.
const order = { id: "order-250", items: items(250, 1), status: "ACTIVE", note: "deliver before noon" };
write("order-250-clean.json", JSON.stringify(order, null, 2));
write("order-250.expected.json", JSON.stringify(order));

// 2. Fenced and messy: the same order with prose, unquoted keys, single quotes, trailing commas, numbers
//    as strings, a comment, a lower-case status.
const messyItems = order.items
  .map((item, index) =>
    index % 3 === 0
      ? `    {name: '${item.name}', quantity: "${item.quantity}", price: ${item.price},}`
      : index % 3 === 1
        ? `    {"name": "${item.name}", "quantity": ${item.quantity}, "price": "${item.price}"}`
        : `    {'name': '${item.name}', 'quantity': ${item.quantity}.0, 'price': ${item.price}}, // item ${index}`,
  )
  .map((line, index, all) =>
    index < all.length - 1 && !line.endsWith("}}") && !line.includes("//") && !line.endsWith(",}")
      ? `${line},`
      : line,
  );
write(
  "order-250-messy.txt",
  [
    "Sure! I went through the whole order carefully. There were many items, so here is the full list:",
    "",
    "```json",
    "{",
    `  id: 'order-250',`,
    "  items: [",
    ...messyItems,
    "  ],",
    "  status: 'active',",
    `  note: "deliver before noon",`,
    "}",
    "```",
    "",
    "Let me know if anything looks off.",
  ].join("\n"),
);

// 3. Truncated: 300 tasks, cut inside the 301st.
const tasks = Array.from({ length: 300 }, (_, index) => ({
  title: `Task ${index}: ${words[index % words.length]} follow-up`,
  priority: ["HIGH", "MEDIUM", "HIGH", "CRITICAL"][index % 4]!,
  done: index % 2 === 0,
  tags: [`t${index % 5}`, `group-${index % 3}`],
}));
// The model writes the aliases it was shown (`p0` for CRITICAL); the expected value has the names.
const taskText = JSON.stringify(
  tasks.map((task) => ({ ...task, priority: task.priority === "CRITICAL" ? "p0" : task.priority })),
).slice(0, -1);
write("tasks-300-truncated.txt", `${taskText}, {"title": "Task 300: cut off in the mid`);
write("tasks-300.expected.json", JSON.stringify(tasks));

// 4. A long string field (30 KB of Korean, emoji and escapes), in repaired JSON.
const paragraph = '분산 시스템 경험이 풍부함 🚀 — "quoted" text, commas, and\\backslashes. ';
const body = paragraph.repeat(450);
write("note-30kb.txt", `{body: ${JSON.stringify(body)},}`);
write("note-30kb.expected.json", JSON.stringify({ body }));

// 5. JSON lines: 200 objects one per line for a list target.
const readings = Array.from({ length: 200 }, (_, index) => ({
  celsius: Math.round((index * 0.37 - 20) * 100) / 100,
  label: `sensor-${index}`,
}));
write("readings-200.jsonl", readings.map((reading) => JSON.stringify(reading)).join("\n"));
write("readings-200.expected.json", JSON.stringify(readings));

// 6. A map with 400 entries, values as strings with units.
const counts = Object.fromEntries(Array.from({ length: 400 }, (_, index) => [`sku-${index}`, index * 3]));
write(
  "inventory-400.txt",
  `Inventory follows.\n{"owner": "warehouse", "counts": {${Object.entries(counts)
    .map(([key, value]) => `"${key}": "${value} units"`)
    .join(", ")}}}`,
);
write("inventory-400.expected.json", JSON.stringify({ counts, owner: "warehouse" }));

// 7. A long list of enums as bullet lines.
const levels = Array.from({ length: 250 }, (_, index) => statuses[index % statuses.length]!);
write(
  "statuses-250.txt",
  levels.map((status) => `- ${status.toLowerCase().replaceAll("_", " ")}`).join("\n"),
);
write("statuses-250.expected.json", JSON.stringify(levels));
