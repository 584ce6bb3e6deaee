// The `on` a mod's `register(on, options)` receives (65-mod-host.md requirement 5). Registrations are
// collected per event in order (first outermost); the whole module fails on an unknown event, a glob
// that selects nothing, or a pattern registered twice without a matcher. `on` and `.catch` close when
// `register` returns.
import { eventList } from './capabilities.ts'
import { ModLoadError } from './errors.ts'
import type { Matcher } from './matcher.ts'
import { selectEvents } from './patterns.ts'

// biome-ignore lint/suspicious/noExplicitAny: a mod's hook is untyped third-party code
export type HookFn = (...args: any[]) => unknown

export interface HookEntry {
  readonly mod: string
  readonly pattern: string
  readonly matcher: Matcher
  readonly hook: HookFn
  catch?: HookFn
}

export interface Registration {
  catch(handler: HookFn): Registration
}

export interface OnCollector {
  readonly on: (pattern: string, matcherOrHook: unknown, maybeHook?: unknown) => Registration
  /** Hooks per supported event, in registration order. */
  readonly byEvent: Map<string, HookEntry[]>
  close(): void
}

export function collectRegistrations(mod: string): OnCollector {
  const byEvent = new Map<string, HookEntry[]>()
  const bare = new Set<string>()
  let open = true
  const on = (pattern: string, matcherOrHook: unknown, maybeHook?: unknown): Registration => {
    if (!open) throw new Error(`mod "${mod}": on() after register() returned; a hook may not register hooks`)
    if (typeof pattern !== 'string') throw new ModLoadError(mod, 'on(): the pattern must be a string')
    const hasMatcher = maybeHook !== undefined
    const hook = hasMatcher ? maybeHook : matcherOrHook
    if (typeof hook !== 'function')
      throw new ModLoadError(mod, `on("${pattern}"): the hook must be a function`)
    const events = selectEvents(pattern)
    if (events.length === 0)
      throw new ModLoadError(
        mod,
        `on("${pattern}"): tack raises no such event; supported events: ${eventList()}`,
      )
    if (!hasMatcher) {
      if (bare.has(pattern)) throw new ModLoadError(mod, `on("${pattern}") registered twice`)
      bare.add(pattern)
    }
    const entry: HookEntry = {
      mod,
      pattern,
      matcher: hasMatcher ? matcherOrHook : undefined,
      hook: hook as HookFn,
    }
    for (const event of events) {
      const list = byEvent.get(event) ?? []
      list.push(entry)
      byEvent.set(event, list)
    }
    let caught = false
    const registration: Registration = {
      catch(handler: HookFn) {
        if (!open) throw new Error(`mod "${mod}": .catch() after register() returned`)
        if (caught) throw new Error(`mod "${mod}": on("${pattern}") already has a .catch()`)
        if (typeof handler !== 'function') throw new Error(`mod "${mod}": .catch() needs a function`)
        caught = true
        entry.catch = handler
        return registration
      },
    }
    return registration
  }
  return {
    on,
    byEvent,
    close() {
      open = false
    },
  }
}
