// Plant ids for the benchmark: unique, but spread over the key space like real ids rather
// than appended in order, so a large store is exercised the way it would be in use.
// x -> x * 0x9E3779B1 mod 2^32 is a bijection (the multiplier is odd); the low 12 bits of x
// are kept beside it so ids stay 15 digits at most (the common, exact-as-a-double case).

const SPREAD = 0x9e3779b1;
const LOW_BITS = 4096;

export const benchId = (x: number): number =>
  (Math.imul(x, SPREAD) >>> 0) * LOW_BITS + (x % LOW_BITS);

/** The same function in SQL, for preloading PostgreSQL with generate_series. */
export const benchIdSql = (x: string): string =>
  `((${x} * ${SPREAD}::int8) % 4294967296) * ${LOW_BITS} + (${x} % ${LOW_BITS})`;

export const benchName = (x: number): string => `bench plant ${x}`;
