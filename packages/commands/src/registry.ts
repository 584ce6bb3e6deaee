// The slash-command registry `ctx.commands` (80-cli.md §7.3): one list for every host. `register` is
// called through cordis's service tracking, so `this.ctx` inside it is the caller's context and the
// registration is undone when the registering plugin is disposed, as well as by the returned disposer.
// `run` fires `ui/command` around the registered command, so a listener (the mod host) may answer first.
import type { Agent } from '@tack/agent'
import { dispatch, emitSafely } from '@tack/kernel'
import { type Context, Service } from 'cordis'
import { isCommandName } from './parse.ts'
import {
  COMMAND_SURFACES,
  type CommandDefinition,
  type CommandInfo,
  type CommandRequest,
  type CommandResult,
  type CommandSurface,
} from './types.ts'

declare module 'cordis' {
  interface Context {
    /** The slash-command registry (@tack/commands). */
    commands: CommandRegistry
  }
}

export interface RunOptions {
  readonly surface: CommandSurface
  /** The host's width; 80 when absent. */
  readonly columns?: number
  readonly signal?: AbortSignal
}

export class CommandRegistrationError extends Error {
  override readonly name = 'CommandRegistrationError'
}

/** Mutable state lives here, never in fields of the (proxied) service object. */
interface State {
  readonly home: Context
  readonly entries: Map<string, CommandDefinition>
}

export class CommandRegistry extends Service {
  private readonly state: State

  constructor(ctx: Context) {
    super(ctx, 'commands')
    this.state = { home: ctx, entries: new Map() }
  }

  /** Adds a command; the returned function (or the registering plugin's disposal) removes it. */
  register(def: CommandDefinition): () => void {
    checkDefinition(def)
    const { entries, home } = this.state
    const frozen: CommandDefinition = Object.freeze({ ...def })
    const dispose = this.ctx.effect(
      () => {
        const held = entries.get(def.name)
        if (held && def.yields) {
          // A yielding command comes second to whatever holds the name (C3: the built-in wins).
          def.yields(def.name)
          return () => {}
        }
        if (held && !held.yields)
          throw new CommandRegistrationError(`a slash command named "/${def.name}" is already registered`)
        // A yielding holder gives the name up, whatever registered first (a built-in that came late).
        held?.yields?.(held.name)
        entries.set(def.name, frozen)
        emitSafely(home, 'commands/changed')
        return () => {
          if (entries.get(def.name) !== frozen) return
          entries.delete(def.name)
          emitSafely(home, 'commands/changed')
        }
      },
      `commands.register(${JSON.stringify(def.name)})`,
    )
    return () => {
      void dispose()
    }
  }

  /** The registered commands in name order; with `surface`, only those that host can run. */
  list(filter: { readonly surface?: CommandSurface } = {}): CommandInfo[] {
    return [...this.state.entries.values()]
      .map(infoOf)
      .filter((c) => filter.surface === undefined || c.surfaces.includes(filter.surface))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  }

  /** The definitions by name (read-only), for `fireCommand`. */
  entries(): ReadonlyMap<string, CommandDefinition> {
    return this.state.entries
  }

  get(name: string): CommandInfo | undefined {
    const def = this.state.entries.get(name)
    return def ? infoOf(def) : undefined
  }

  /**
   * Runs command `name` for `agent`'s session: fires `ui/command`, whose innermost handler runs the
   * registered command. A command that throws, or that the surface cannot run, answers `error`; a name
   * nobody registered answers `unknown` (unless a listener answered it).
   */
  run(agent: Agent, name: string, args: string, options: RunOptions): Promise<CommandResult> {
    return fireCommand(this.state.home, agent, name, args, options, this.state.entries)
  }
}

/**
 * Fires `ui/command` for command `name` with the registered command (from `entries`) beneath the
 * listeners. Without entries (no registry mounted) only the listeners can answer; otherwise `unknown`.
 * `ctx.commands.run` is the way in for hosts; this exists for contexts that may have no registry.
 */
export async function fireCommand(
  ctx: Context,
  agent: Agent,
  name: string,
  args: string,
  options: RunOptions,
  entries: ReadonlyMap<string, CommandDefinition> = registryEntries(ctx),
): Promise<CommandResult> {
  const request: CommandRequest = Object.freeze({
    name,
    args,
    surface: options.surface,
    columns: options.columns ?? 80,
    signal: options.signal ?? new AbortController().signal,
  })
  try {
    const { value } = await dispatch(ctx, 'ui/command', [agent, request], ([a, r]) =>
      runRegistered(entries, a, r),
    )
    return value
  } catch (error) {
    return { kind: 'error', message: `/${name}: ${oneLine(error)}` }
  }
}

function registryEntries(ctx: Context): ReadonlyMap<string, CommandDefinition> {
  const registry = ctx.get('commands') as CommandRegistry | undefined
  return registry ? registry.entries() : new Map()
}

// A module function, not a method: `#private` members do not survive cordis's service proxy.
async function runRegistered(
  entries: ReadonlyMap<string, CommandDefinition>,
  agent: Agent,
  request: CommandRequest,
): Promise<CommandResult> {
  const def = entries.get(request.name)
  if (!def) return { kind: 'unknown', name: request.name }
  const surfaces = def.surfaces ?? COMMAND_SURFACES
  if (!surfaces.includes(request.surface))
    return {
      kind: 'error',
      message: `/${def.name} works only in ${surfaces.map(surfaceName).join(' and ')}`,
    }
  return def.run({
    agent,
    args: request.args,
    surface: request.surface,
    columns: request.columns,
    signal: request.signal,
  })
}

function checkDefinition(def: CommandDefinition): void {
  if (typeof def?.name !== 'string' || !isCommandName(def.name))
    throw new CommandRegistrationError(
      `slash command name ${JSON.stringify(def?.name)} is not valid (letters, digits, -, _, : and ., starting with a letter or digit; no slash)`,
    )
  if (typeof def.description !== 'string' || def.description.trim() === '')
    throw new CommandRegistrationError(`slash command "/${def.name}" needs a description`)
  if (typeof def.run !== 'function')
    throw new CommandRegistrationError(`slash command "/${def.name}" needs a run function`)
  if (def.yields !== undefined && typeof def.yields !== 'function')
    throw new CommandRegistrationError(`slash command "/${def.name}": yields must be a function`)
  for (const s of def.surfaces ?? [])
    if (!(COMMAND_SURFACES as readonly string[]).includes(s))
      throw new CommandRegistrationError(
        `slash command "/${def.name}": unknown surface ${JSON.stringify(s)} (expected ${COMMAND_SURFACES.join(', ')})`,
      )
}

function infoOf(def: CommandDefinition): CommandInfo {
  return Object.freeze({
    name: def.name,
    description: def.description,
    ...(def.args !== undefined ? { args: def.args } : {}),
    surfaces: def.surfaces ?? COMMAND_SURFACES,
  })
}

function surfaceName(surface: CommandSurface): string {
  return { tui: 'the interactive UI (tack)', headless: 'tack run', acp: 'ACP clients' }[surface]
}

function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.split('\n')[0]
}

/**
 * Registers `def` as an effect of `ctx`'s plugin when a command registry is mounted, from any context
 * (no `inject` needed); returns its disposer, or undefined without a registry (a host with no commands).
 */
export function registerCommand(ctx: Context, def: CommandDefinition): (() => void) | undefined {
  const registry = ctx.get('commands') as CommandRegistry | undefined
  return registry?.register(def)
}
