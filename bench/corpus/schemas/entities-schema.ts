/** A top-level list of entities: scales by the number of entities. */
import type { ObjectSchema } from "../corpus-schema.js";
import type { JsonObject, JsonValue } from "../json-value.js";
import { createSeededRandom, type SeededRandom } from "../seeded-random.js";
import { companies, events, firstNames, lastNames, locations, products } from "../word-lists.js";
import { sizeToTarget } from "./size-to-target.js";

const typeSpellings: Record<string, string> = {
  PERSON: "Person",
  ORGANIZATION: "organization",
  LOCATION: "Location",
  PRODUCT: "product",
  EVENT: "Event",
};

function entity(random: SeededRandom): JsonObject {
  const entityType = random.pick(Object.keys(typeSpellings));
  let name: string;
  let aliases: string[];
  if (entityType === "PERSON") {
    const last = random.pick(lastNames);
    name = `${random.pick(firstNames)} ${last}`;
    aliases = [last, `Dr. ${last}`];
  } else if (entityType === "ORGANIZATION") {
    name = random.pick(companies);
    aliases = [`${name} Inc.`, name.split(" ")[0] as string];
  } else if (entityType === "LOCATION") {
    name = random.pick(locations);
    aliases = [`${name} metro area`, `greater ${name}`];
  } else if (entityType === "PRODUCT") {
    name = `${random.pick(products)} ${random.integer(2, 9)}`;
    aliases = [`the ${name.toLowerCase()}`, `model ${random.integer(100, 999)}`];
  } else {
    name = random.pick(events);
    aliases = [name.replace(/^the /, ""), `${name} ${random.integer(2020, 2026)}`];
  }
  return {
    name,
    entity_type: entityType,
    mentions: random.integer(1, 40),
    salience: random.chance(0.3) ? null : random.integer(5, 99) / 100,
    aliases: random.sample(aliases, 2),
  };
}

function entities(seed: number, count: number): JsonValue {
  const random = createSeededRandom(seed);
  return Array.from({ length: count }, () => entity(random));
}

export const entitiesSchema: ObjectSchema = {
  key: "entities",
  typeExpression: "Entity[]",
  functionName: "ExtractEntities",
  generate: (random, targetBytes) => {
    const seed = random.integer(0, 2 ** 31);
    // At least two entities, so the garbles on [0] and [1] always have a place to go.
    return sizeToTarget(Math.max(targetBytes, 1), (count) => entities(seed, count + 1));
  },
  preamble: (value, random) =>
    random.pick([
      `I found ${(value as JsonValue[]).length} named entities in the article.`,
      "Here are the entities, most salient first where I could tell.",
      "Sure! I went through the article paragraph by paragraph and collected every named entity.",
    ]),
  truncationKeyOrder: (_path, keys) => [...keys.filter((key) => key !== "aliases"), "aliases"],
  numbersAsStrings: (value) => {
    const list = value as JsonObject[];
    return [
      { path: "[0].mentions", answer: String((list[0] as JsonObject).mentions) },
      { path: "[1].mentions", answer: `${(list[1] as JsonObject).mentions} times` },
    ];
  },
  enumSpellings: (value) =>
    (value as JsonObject[]).slice(0, 3).map((item, index) => ({
      path: `[${index}].entity_type`,
      answer: typeSpellings[item.entity_type as string] as string,
    })),
  commaSeparatedList: (value) => [
    {
      path: "[0].aliases",
      answer: (((value as JsonObject[])[0] as JsonObject).aliases as string[]).join(", "),
    },
  ],
  singleValueForList: (value) => {
    const alias = (((value as JsonObject[])[1] as JsonObject).aliases as string[])[0] as string;
    return [{ path: "[1].aliases", answer: alias, expected: [alias] }];
  },
};
