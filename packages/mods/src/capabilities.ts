// What this host supports: the single source for `tack mods capabilities`, for load errors that list
// the supported events and nouns, and for the `$` object (65-mod-host.md requirement 12).

/** Events tack raises for mods (65-mod-host.md requirement 10), in the spec's table order. */
export const SUPPORTED_EVENTS = Object.freeze([
  'session.start',
  'session.end',
  'session.measure',
  'turn.start',
  'turn.step',
  'turn.complete',
  'prompt.submit',
  'prompt.edit',
  'prompt.suggest',
  'command.run',
  'tool.call',
  'tool.check',
  'classic.StopFailure',
  'classic.Notification',
] as const)

export type ModEventName = (typeof SUPPORTED_EVENTS)[number]

/** `$` nouns and their methods (65-mod-host.md requirement 11). `plugin` holds values, not methods. */
export const SUPPORTED_NOUNS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  fs: Object.freeze(['read', 'write', 'exists', 'list', 'stat']),
  env: Object.freeze(['get']),
  session: Object.freeze(['id', 'version', 'usage', 'cwd']),
  clock: Object.freeze(['now', 'sleep', 'after', 'every']),
  store: Object.freeze(['get', 'set', 'delete', 'keys']),
  ui: Object.freeze(['log']),
  process: Object.freeze(['run']),
  plugin: Object.freeze(['name', 'root']),
})

export interface Capabilities {
  readonly events: string[]
  readonly nouns: Record<string, string[]>
}

export function capabilities(): Capabilities {
  return {
    events: [...SUPPORTED_EVENTS],
    nouns: Object.fromEntries(Object.entries(SUPPORTED_NOUNS).map(([k, v]) => [k, [...v]])),
  }
}

export function isSupportedEvent(name: string): name is ModEventName {
  return (SUPPORTED_EVENTS as readonly string[]).includes(name)
}

export const eventList = (): string => SUPPORTED_EVENTS.join(', ')
export const nounList = (): string => Object.keys(SUPPORTED_NOUNS).join(', ')
