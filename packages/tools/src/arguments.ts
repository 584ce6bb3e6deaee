// A call's logged argument text as an object, for front ends that show calls (the TUI's cards, ACP's
// updates): the model's raw text may be anything — invalid JSON, an array — and then shows as `{}`.

export function parseToolArguments(raw: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(raw)
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {}
  } catch {
    return {}
  }
}
