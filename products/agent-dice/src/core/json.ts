// Reading JSON that tack does not control (a hook's stdin, a hand-edited slots.json) as one object.

/** `text` parsed as a JSON object; anything unparseable or not an object (null, an array) counts as `{}`. */
export function parseJsonObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text)
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {}
  } catch {
    return {}
  }
}
