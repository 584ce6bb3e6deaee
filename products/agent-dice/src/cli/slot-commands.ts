// The slot commands (R23): register, unregister, list, status, roll, reset, clear, odds. Text output
// of the public commands is byte-identical to the public CLI.
import { clearSlot, preview, requireValidSlot, resetSlot, status } from '../core/engine.ts'
import { oddsTable } from '../core/probability.ts'
import type { CoreCheckContext, DiceSlotConfig } from '../core/types.ts'
import type { FileDiceStore } from '../store/file-store.ts'
import { type ParsedArgs, parseInteger } from './args.ts'
import { CliError, slotNotFound, usageError } from './errors.ts'
import type { CommandResult } from './result.ts'

export interface SlotCommandEnv {
  args: ParsedArgs
  store: FileDiceStore
  /** The check context for `--session` (or the host's own session when absent). */
  context(sessionFlag: string | undefined): CoreCheckContext
  rng?: () => number
}

const requireName = (args: ParsedArgs): string => {
  const name = args.positionals[0]
  if (!name) throw usageError('slot name required')
  return name
}

const intFlag = (args: ParsedArgs, flag: string, field: string, fallback: number) => {
  const raw = args.values.get(flag)
  return raw === undefined ? fallback : parseInteger(field, raw)
}

export function register({ store, args }: SlotCommandEnv): CommandResult {
  const name = requireName(args)
  const die = intFlag(args, '--die', 'die', 20)
  const config = {
    name,
    die,
    // Without --target the die's top face (issue 11.8): a d20 keeps 20, and `--die 6` alone is valid,
    // as the public CLI accepts it.
    target: intFlag(args, '--target', 'target', die),
    targetMode: (args.values.get('--target-mode') ?? 'exact') as DiceSlotConfig['targetMode'],
    type: (args.values.get('--type') ?? 'accumulator') as DiceSlotConfig['type'],
    accumulationRate: intFlag(args, '--accumulation-rate', 'accumulationRate', 7),
    maxDice: intFlag(args, '--max-dice', 'maxDice', 100),
    fixedCount: intFlag(args, '--fixed-count', 'fixedCount', 1),
    cooldown: (args.values.get('--cooldown') ?? 'per-session') as DiceSlotConfig['cooldown'],
    clearOnSessionStart: !args.booleans.has('--no-clear-on-start'),
    resetOnTrigger: !args.booleans.has('--no-reset-on-trigger'),
    flavor: !args.booleans.has('--no-flavor'),
    onTrigger: { message: args.values.get('--message') ?? `Dice trigger: ${name}` },
  }
  const slot = store.register(config)
  return {
    lines: [
      `Registered: ${slot.name} (${slot.type}, d${slot.die}, target=${slot.target} ${slot.targetMode})`,
    ],
    data: { slot },
  }
}

export function unregister({ store, args }: SlotCommandEnv): CommandResult {
  const name = requireName(args)
  if (!store.unregister(name)) throw slotNotFound(name)
  return { lines: [`Removed slot: ${name}`], data: { name } }
}

export function list({ store }: SlotCommandEnv): CommandResult {
  const entries = store.entries()
  if (entries.length === 0) return { lines: ['No slots registered.'], data: { slots: [] } }
  const lines = entries.map(({ key, check }) =>
    check.ok
      ? `  ${check.slot.name} (${check.slot.type}, ${check.slot.die}-sided, target=${check.slot.target} ${check.slot.targetMode})`
      : `  ${key} (invalid: ${check.reason})`,
  )
  const slots = entries.map(({ key, record, check }) => {
    const fields = record !== null && typeof record === 'object' && !Array.isArray(record) ? record : {}
    return check.ok
      ? { ...fields, valid: true }
      : { name: key, ...fields, valid: false, invalidReason: check.reason }
  })
  return { lines, data: { slots } }
}

async function slotStatus(env: SlotCommandEnv, name: string) {
  const result = await status(env.store, name, env.context(env.args.values.get('--session')))
  if (!result) throw slotNotFound(name)
  return result
}

export async function statusCommand(env: SlotCommandEnv): Promise<CommandResult> {
  const s = await slotStatus(env, requireName(env.args))
  const lines = [
    `Slot: ${s.name} (${s.type})`,
    `  Dice count:      ${s.diceCount}`,
    `  Current depth:   ${s.currentDepth}`,
    `  Since trigger:   ${s.depthSinceTrigger}`,
    `  Probability:     ${s.probability}%`,
  ]
  if (s.type === 'accumulator') lines.push(`  Next die at:     depth ${s.nextDiceAt}`)
  return { lines, data: { status: s } }
}

/** A dry run: never writes (no calibration, no reset, no cooldown). */
export async function roll(env: SlotCommandEnv): Promise<CommandResult> {
  const name = requireName(env.args)
  const s = await slotStatus(env, name)
  const slot = (await requireValidSlot(env.store, name)) as DiceSlotConfig
  const result = preview(slot, s.diceCount, env.rng)
  if (s.diceCount <= 0) return { lines: [`${name}: 0 dice (no roll)`], data: { result } }
  const hit = result.triggered ? ' TRIGGERED!' : ''
  return {
    lines: [
      `${name}: ${s.diceCount}d${slot.die} = [${result.rolls.join(', ')}] (best: ${result.best}, ${result.probability}%)${hit}`,
    ],
    data: { result },
  }
}

export async function reset(env: SlotCommandEnv): Promise<CommandResult> {
  const name = requireName(env.args)
  const ctx = env.context(env.args.values.get('--session'))
  if (!(await resetSlot(env.store, name, ctx))) throw slotNotFound(name)
  return { lines: [`Reset slot: ${name}`], data: { name, sessionId: ctx.sessionId } }
}

export async function clear(env: SlotCommandEnv): Promise<CommandResult> {
  const name = requireName(env.args)
  const ctx = env.context(env.args.values.get('--session'))
  if (!(await clearSlot(env.store, name, ctx))) throw slotNotFound(name)
  return { lines: [`Cleared slot: ${name}`], data: { name, sessionId: ctx.sessionId } }
}

export const ODDS_TO_MAX = 10_000

/** Odds from a fresh trigger: by default six accumulation bands (42 turns at rate 7), else 10. */
export async function odds(env: SlotCommandEnv): Promise<CommandResult> {
  const name = requireName(env.args)
  const slot = await requireValidSlot(env.store, name)
  if (!slot) throw slotNotFound(name)
  const fallback = slot.type === 'accumulator' ? Math.min(ODDS_TO_MAX, slot.accumulationRate * 6) : 10
  const to = intFlag(env.args, '--to', 'to', fallback)
  if (to < 1 || to > ODDS_TO_MAX) {
    throw new CliError(
      'invalid_config',
      `Error: Invalid to "${to}": must be an integer from 1 to ${ODDS_TO_MAX}`,
    )
  }
  const rows = oddsTable(slot, 0, to)
  return {
    lines: rows.map(
      (r) => `depth ${r.depth}: ${r.dice} dice, ${r.perTurn}% per turn, ${r.cumulative}% cumulative`,
    ),
    data: { name, rows },
  }
}
