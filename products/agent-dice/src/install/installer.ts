// `install | check | uninstall [claude|codex]` (R26).
import { accessSync, constants, existsSync, realpathSync, rmSync, statSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import type { HostEnvironment } from '../host/env.ts'
import { FileDiceStore } from '../store/file-store.ts'
import {
  type ConfigRead,
  InstallError,
  type JsonObject,
  jsonEqual,
  readConfig,
  writeConfig,
} from './config-file.ts'
import { installFacade, ownsBase, prepareBase, removeFacade, removeLegacyLinks } from './data.ts'
import { checkShape, ownedHandlers, reconcileEvent } from './reconcile.ts'
import {
  canonicalEntry,
  HOOK_EVENTS,
  type InstallTarget,
  isOwnedCommand,
  packageRoot,
  scriptExists,
  scriptOf,
  type TargetPaths,
  targetPaths,
} from './targets.ts'

export type ItemLevel = 'ok' | 'warn' | 'err' | 'info'
export interface Item {
  level: ItemLevel
  text: string
}

export interface InstallerReport {
  target: InstallTarget
  configPath: string
  base: string
  items: Item[]
  /** Exit code: 1 when a check found errors or a purge was refused. */
  exitCode: number
}

const prefix: Record<ItemLevel, string> = { ok: 'ok  ', warn: 'warn', err: 'err ', info: 'info' }
/** `ok   …` / `warn …` / `err  …` / `info …`. */
export const formatItem = (item: Item) => `${prefix[item.level]} ${item.text}`

const newConfig = (): JsonObject => ({ hooks: {} })

function readTargetConfig(paths: TargetPaths): ConfigRead {
  const read = readConfig(paths.configPath, newConfig)
  checkShape(paths.configPath, read.value, HOOK_EVENTS)
  return read
}

/** Reconciles both events; writes only when the result differs from what was read. */
function applyHooks(paths: TargetPaths, install: boolean): Item[] {
  const read = readTargetConfig(paths)
  const owned = (command: unknown) => isOwnedCommand(command, paths)
  let next = read.value
  for (const event of HOOK_EVENTS)
    next = reconcileEvent(next, event, install ? canonicalEntry(paths.target, event) : null, owned)
  const changed = !read.exists ? install : !jsonEqual(read.value, next)
  if (changed) writeConfig(paths.configPath, next)
  const verb = install
    ? changed
      ? 'Registered Stop and SessionStart hooks in'
      : 'Hooks already registered in'
    : changed
      ? 'Removed our hooks from'
      : 'No hooks of ours in'
  return [{ level: 'ok', text: `${verb} ${paths.configPath}` }]
}

export function install(target: InstallTarget, e: HostEnvironment): InstallerReport {
  const paths = targetPaths(target, e)
  const items = applyHooks(paths, true)
  const { created } = prepareBase(paths.base)
  items.push({ level: 'ok', text: `${created ? 'Created' : 'Using'} data folder ${paths.base}` })
  if (target === 'claude') {
    items.push({ level: 'ok', text: installFacade(paths.base) })
    for (const text of removeLegacyLinks(e)) items.push({ level: 'ok', text })
  }
  return { target, configPath: paths.configPath, base: paths.base, items, exitCode: 0 }
}

export function uninstall(target: InstallTarget, e: HostEnvironment, purgeData: boolean): InstallerReport {
  const paths = targetPaths(target, e)
  const items = applyHooks(paths, false)
  if (target === 'claude') {
    const removed = removeFacade(paths.base)
    if (removed) items.push({ level: 'ok', text: removed })
  }
  const exitCode = 0
  if (purgeData) {
    if (!existsSync(paths.base)) items.push({ level: 'ok', text: `No data folder at ${paths.base}` })
    else if (ownsBase(paths.base)) {
      rmSync(paths.base, { recursive: true, force: true })
      items.push({ level: 'ok', text: `Removed data folder ${paths.base}` })
    } else {
      throw new InstallError(`Refusing to delete ${paths.base}: not created by agent-dice`, 'io_error', true)
    }
  }
  return { target, configPath: paths.configPath, base: paths.base, items, exitCode }
}

/** The first `agent-dice` on PATH, if any. */
function firstOnPath(e: HostEnvironment): string | undefined {
  for (const dir of (e.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue
    const candidate = join(dir, 'agent-dice')
    try {
      if (statSync(candidate).isFile()) {
        accessSync(candidate, constants.X_OK)
        return candidate
      }
    } catch {
      // Not here.
    }
  }
  return undefined
}

function checkHooks(paths: TargetPaths, items: Item[]): void {
  let read: ConfigRead
  try {
    read = readTargetConfig(paths)
  } catch (error) {
    items.push({
      level: 'err',
      text: error instanceof Error ? error.message.replace(/; not modified$/, '') : String(error),
    })
    return
  }
  if (!read.exists) {
    items.push({
      level: 'err',
      text: `${paths.configPath} does not exist (run agent-dice install ${paths.target})`,
    })
    return
  }
  const owned = (command: unknown) => isOwnedCommand(command, paths)
  for (const event of HOOK_EVENTS) {
    const canonical = canonicalEntry(paths.target, event)
    const handlers = ownedHandlers(read.value, event, owned)
    const exact = handlers.filter((h) => jsonEqual(h, canonical)).length
    if (exact === 1 && handlers.length === 1)
      items.push({ level: 'ok', text: `${event} hook registered: ${canonical.command}` })
    else if (handlers.length === 0)
      items.push({ level: 'err', text: `${event} hook not registered in ${paths.configPath}` })
    else {
      items.push({
        level: 'err',
        text: `${event}: expected exactly one canonical entry, found ${exact} of ${handlers.length} owned (run agent-dice install ${paths.target} to repair)`,
      })
    }
    for (const handler of handlers) {
      if (typeof handler.command === 'string' && !scriptExists(handler.command)) {
        items.push({ level: 'err', text: `${event} hook file missing: ${scriptOf(handler.command)}` })
      }
    }
  }
}

function checkData(paths: TargetPaths, items: Item[]): void {
  if (!existsSync(paths.base)) {
    items.push({
      level: 'warn',
      text: `Data folder ${paths.base} does not exist (run agent-dice install ${paths.target})`,
    })
    return
  }
  items.push({ level: 'ok', text: `Data folder ${paths.base}` })
  const store = new FileDiceStore(paths.base)
  const corrupt = store.registryCorrupt()
  if (corrupt) {
    items.push({ level: 'err', text: `${store.slotsFile} is corrupt: ${corrupt}` })
    return
  }
  const entries = store.entries()
  for (const entry of entries) {
    if (!entry.check.ok)
      items.push({ level: 'warn', text: `Invalid slot "${entry.key}": ${entry.check.reason}` })
  }
  items.push({ level: 'ok', text: `Slots: ${entries.length} registered` })
}

function checkPath(e: HostEnvironment, items: Item[]): void {
  const found = firstOnPath(e)
  if (!found) {
    items.push({ level: 'info', text: 'agent-dice is not on PATH' })
    return
  }
  const ours = realpathSync(join(packageRoot(), 'bin', 'agent-dice.js'))
  let resolved = found
  try {
    resolved = realpathSync(found)
  } catch {
    // Keep the unresolved path.
  }
  if (resolved === ours) items.push({ level: 'ok', text: `agent-dice on PATH: ${found}` })
  else items.push({ level: 'warn', text: `Another agent-dice is first on PATH: ${found}` })
}

export function check(target: InstallTarget, e: HostEnvironment): InstallerReport {
  const paths = targetPaths(target, e)
  const items: Item[] = []
  checkHooks(paths, items)
  checkData(paths, items)
  checkPath(e, items)
  if (target === 'codex') {
    items.push({
      level: 'info',
      text: 'Codex runs only trusted hooks: review them with /hooks in Codex, or run once with --dangerously-bypass-hook-trust',
    })
  }
  const errors = items.some((i) => i.level === 'err')
  return {
    target,
    configPath: paths.configPath,
    base: paths.base,
    items,
    exitCode: errors ? 1 : 0,
  }
}

/** `Status: ok|warnings|errors`. */
export function statusLine(items: readonly Item[]): string {
  if (items.some((i) => i.level === 'err')) return 'Status: errors'
  if (items.some((i) => i.level === 'warn')) return 'Status: warnings'
  return 'Status: ok'
}
