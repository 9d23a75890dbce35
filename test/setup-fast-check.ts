import fc from "fast-check";

/**
 * Property tests run from a fixed seed, so a CI run is reproducible and a red one can be replayed. Set
 * `FC_SEED=<number>` to replay a seed, or `FC_SEED=random` to explore new cases locally (fast-check prints
 * the seed of any counterexample it finds; add the case as a plain test when it is a bug).
 */
const configured = process.env.FC_SEED;
if (configured !== "random") {
  const seed = configured === undefined ? 20261206 : Number(configured);
  if (!Number.isInteger(seed)) throw new Error(`FC_SEED must be an integer or "random", got ${configured}`);
  fc.configureGlobal({ seed });
}
