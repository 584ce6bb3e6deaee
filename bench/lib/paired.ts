// Two timed operations measured in pairs, for a figure "extra time over a baseline": after `warmup`
// untimed pairs, `rounds` pairs, which of the two goes first alternating round by round so neither
// always follows the other's garbage or a cold cache. Returns each one's times and the per-round
// differences (measured minus baseline).
export async function pairedTimes(
  measured: () => Promise<number>,
  baseline: () => Promise<number>,
  opts: { rounds: number; warmup: number },
): Promise<{ measured: number[]; baseline: number[]; extra: number[] }> {
  for (let i = 0; i < opts.warmup; i++) {
    await measured()
    await baseline()
  }
  const out = { measured: [] as number[], baseline: [] as number[], extra: [] as number[] }
  for (let i = 0; i < opts.rounds; i++) {
    let m: number
    let b: number
    if (i % 2 === 0) {
      m = await measured()
      b = await baseline()
    } else {
      b = await baseline()
      m = await measured()
    }
    out.measured.push(m)
    out.baseline.push(b)
    out.extra.push(m - b)
  }
  return out
}
