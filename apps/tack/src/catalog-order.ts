// The order `boot` loads its entries in: the declared order, or — for tack's own tests only — a
// shuffle seeded by `TACK_DEV_SHUFFLE_CATALOG=<integer>`, which proves that the order changes nothing
// (docs/decisions/0206-boot-loop.md). Not a user setting: it is read from the boot's environment and
// from the process's (in-process test boots pass an environment of their own), and it never changes
// what a run does, only the order its plugins are loaded in.

export const SHUFFLE_VARIABLE = 'TACK_DEV_SHUFFLE_CATALOG'

export function catalogOrder<T>(entries: readonly T[], env: NodeJS.ProcessEnv): readonly T[] {
  const raw = env[SHUFFLE_VARIABLE] ?? process.env[SHUFFLE_VARIABLE]
  if (raw === undefined || raw === '') return entries
  const seed = Number(raw)
  if (!Number.isSafeInteger(seed))
    throw new Error(`${SHUFFLE_VARIABLE} must be an integer seed, not "${raw}"`)
  return shuffled(entries, seed)
}

/** Fisher–Yates with a small seeded generator (mulberry32): the same seed, the same order. */
export function shuffled<T>(entries: readonly T[], seed: number): T[] {
  let state = seed >>> 0
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
  const out = [...entries]
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[out[i], out[j]] = [out[j], out[i]]
  }
  return out
}
