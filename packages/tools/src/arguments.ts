// What counts as a JSON object, once for the package: the argument text the model sends, schemas, and
// the values plugins hand to the pipeline are all checked against it.

/** A non-null, non-array object: what JSON calls an object. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/**
 * A call's logged argument text as an object, for front ends that show calls (the TUI's cards, ACP's
 * updates): the model's raw text may be anything — invalid JSON, an array — and then shows as `{}`.
 */
export function parseToolArguments(raw: string): Record<string, unknown> {
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    return {}
  }
  return isJsonObject(value) ? value : {}
}
