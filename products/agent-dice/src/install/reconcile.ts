// Drives one event's hook list toward the desired state (R26): our canonical entry present exactly
// once, or absent. The first owned entry is rewritten in place (keeping its matcher, group fields,
// siblings and order); other owned entries are dropped; groups and events we emptied are removed.
import { type JsonObject, notModified } from './config-file.ts'
import type { CommandHook, HookEvent } from './targets.ts'

const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v)

/** Validates the shapes we touch; a non-array `hooks.<Event>` is refused, never coerced. */
export function checkShape(path: string, config: JsonObject, events: readonly HookEvent[]): void {
  if (config.hooks === undefined) return
  if (!isObject(config.hooks)) throw notModified(path, '"hooks" is not an object')
  for (const event of events) {
    const list = config.hooks[event]
    if (list !== undefined && !Array.isArray(list))
      throw notModified(path, `"hooks.${event}" is not an array`)
  }
}

/** A copy of `config` with `event` reconciled to `entry` (or with our entries removed when null). */
export function reconcileEvent(
  config: JsonObject,
  event: HookEvent,
  entry: CommandHook | null,
  owned: (command: unknown) => boolean,
): JsonObject {
  const next = structuredClone(config)
  const hooks: JsonObject = isObject(next.hooks) ? next.hooks : {}
  const groups: unknown[] = Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : []
  let placed = false
  const kept: unknown[] = []
  for (const group of groups) {
    if (!isObject(group) || !Array.isArray(group.hooks)) {
      kept.push(group)
      continue
    }
    let touched = false
    const handlers: unknown[] = []
    for (const handler of group.hooks) {
      if (isObject(handler) && owned(handler.command)) {
        touched = true
        if (entry && !placed) {
          handlers.push({ ...entry })
          placed = true
        }
      } else handlers.push(handler)
    }
    if (touched && handlers.length === 0) continue
    kept.push(touched ? { ...group, hooks: handlers } : group)
  }
  if (entry && !placed) kept.push({ hooks: [{ ...entry }] })
  if (kept.length > 0) hooks[event] = kept
  else delete hooks[event]
  if (kept.length > 0 || isObject(next.hooks)) next.hooks = hooks
  return next
}

/** Every owned handler of `event`, in order. */
export function ownedHandlers(
  config: JsonObject,
  event: HookEvent,
  owned: (command: unknown) => boolean,
): JsonObject[] {
  const hooks = isObject(config.hooks) ? config.hooks : {}
  const groups = Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : []
  return groups.flatMap((g) =>
    isObject(g) && Array.isArray(g.hooks)
      ? g.hooks.filter((h): h is JsonObject => isObject(h) && owned(h.command))
      : [],
  )
}
