// `on()` patterns (65-mod-host.md requirement 5): an event name, a namespace glob `ns.*`, `*`, or
// `!pattern` (every supported event except those). Returns the supported events a pattern selects.
import { SUPPORTED_EVENTS } from './capabilities.ts'

function selectPositive(pattern: string): string[] {
  if (pattern === '*') return [...SUPPORTED_EVENTS]
  if (pattern.endsWith('.*')) {
    const ns = pattern.slice(0, -1)
    return SUPPORTED_EVENTS.filter((e) => e.startsWith(ns))
  }
  return SUPPORTED_EVENTS.filter((e) => e === pattern)
}

/** The supported events `pattern` selects (empty: the host raises no such event). */
export function selectEvents(pattern: string): string[] {
  if (pattern.startsWith('!')) {
    const excluded = new Set(selectPositive(pattern.slice(1)))
    return SUPPORTED_EVENTS.filter((e) => !excluded.has(e))
  }
  return selectPositive(pattern)
}
