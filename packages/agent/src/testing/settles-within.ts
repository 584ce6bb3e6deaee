/**
 * `p`'s value, or a failure naming `ms` when `p` takes longer: for tests that a cancel is honoured
 * promptly, where the unfixed behaviour is to wait for work that may never end.
 */
export async function settlesWithin<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`did not settle within ${ms} ms`)), ms)
  })
  try {
    return await Promise.race([p, late])
  } finally {
    clearTimeout(timer)
  }
}
