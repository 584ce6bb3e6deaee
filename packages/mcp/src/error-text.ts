// A thrown value as one line of text for a person or the model.
export function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error)
  return text.replace(/\s+/g, ' ').trim() || 'unknown error'
}
