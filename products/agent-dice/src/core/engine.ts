// The host-agnostic engine (R4–R9): dice counts, calibration, the shared-roll check with its pinned
// RNG order, trigger effects, session-start clearing, clear/reset, status and preview. Hosts supply
// only the `DiceHost` primitives and a `CoreCheckContext`.
import { readAccumulator } from './accumulator.ts'
import { calculateProbability } from './probability.ts'
import { bestOf, checkTarget, findTriggerValue, rollDice } from './roll.ts'
import type { CoreCheckContext, DiceHost, DiceResult, DiceSlotConfig, SlotStatus } from './types.ts'
import { checkSlot, invalidSlotMessage } from './validate.ts'

/** A stored slot that fails validation; `status`/`roll` report it, checks skip it. */
export class InvalidSlotError extends Error {
  override readonly name = 'InvalidSlotError'
  readonly slot: string
  readonly reason: string
  constructor(slot: string, reason: string) {
    super(invalidSlotMessage(slot, reason))
    this.slot = slot
    this.reason = reason
  }
}

export function emptyResult(slotName: string): DiceResult {
  return { slotName, triggered: false, rolls: [], best: 0, diceCount: 0, probability: 0 }
}

const nowIso = (host: DiceHost) => new Date(host.now ? host.now() : Date.now()).toISOString()
const rngOf = (host: DiceHost): (() => number) => {
  const rng = host.rng
  return rng ? () => rng.call(host) : Math.random
}

/** Memoizes the context's depth so one operation asks for it at most once. */
function depthOnce(ctx: CoreCheckContext): () => Promise<number | undefined> {
  let pending: Promise<number | undefined> | undefined
  return () => {
    pending ??= ctx.getCurrentDepth()
    return pending
  }
}

/** Evaluates one slot's rolls against its target: the pure part shared by `checkAll` and `preview`. */
function evaluate(slot: DiceSlotConfig, rolls: number[]): DiceResult {
  const triggered = checkTarget(rolls, slot.target, slot.targetMode)
  const result: DiceResult = {
    slotName: slot.name,
    triggered,
    rolls,
    best: bestOf(rolls),
    diceCount: rolls.length,
    probability: calculateProbability(rolls.length, slot.die, slot.target, slot.targetMode),
  }
  if (triggered) result.triggerValue = findTriggerValue(rolls, slot.target, slot.targetMode)
  return result
}

/** Dice a slot rolls in this check; an accumulator persists a sentinel calibration once. */
async function diceCount(
  host: DiceHost,
  slot: DiceSlotConfig,
  ctx: CoreCheckContext,
  depth: () => Promise<number | undefined>,
): Promise<number> {
  switch (slot.type) {
    case 'single':
      return 1
    case 'fixed':
      return slot.fixedCount
    case 'accumulator': {
      const reading = readAccumulator(
        slot,
        await depth(),
        await host.loadState(slot.name, ctx.sessionId),
        nowIso(host),
      )
      if (reading.calibratedState) await host.saveState(slot.name, ctx.sessionId, reading.calibratedState)
      return reading.diceCount
    }
    default: {
      const never: never = slot.type
      return never
    }
  }
}

/** Valid slots in registry order; invalid records are skipped (they never roll, block nothing). */
async function validSlots(host: DiceHost): Promise<DiceSlotConfig[]> {
  const slots: DiceSlotConfig[] = []
  for (const record of await host.listSlots()) {
    const check = checkSlot(record)
    if (check.ok) slots.push(check.slot)
  }
  return slots
}

/**
 * One end-of-turn check of every slot (R6). Cooled `per-session` slots get the empty result and are
 * excluded before grouping; active slots group by die in first-seen order; a group rolls one base
 * die when any of its slots has dice, then each slot's bonus dice in slot order. Results list the
 * cooled slots first, then the groups. A continuation (R9) returns `[]` without touching the RNG.
 */
export async function checkAll(host: DiceHost, ctx: CoreCheckContext): Promise<DiceResult[]> {
  return (await runCheck(host, ctx)).results
}

export interface CheckOutcome {
  results: DiceResult[]
  /** The valid slots the check saw, by name (for rendering). */
  slots: Map<string, DiceSlotConfig>
}

/** `checkAll` plus the slots it read, so a host renders without reading the registry again. */
export async function runCheck(host: DiceHost, ctx: CoreCheckContext): Promise<CheckOutcome> {
  const slots = new Map<string, DiceSlotConfig>()
  const results: DiceResult[] = []
  if (ctx.continuation) return { results, slots }
  const active: DiceSlotConfig[] = []
  for (const slot of await validSlots(host)) {
    slots.set(slot.name, slot)
    if (slot.cooldown === 'per-session' && (await host.hasCooldown(slot.name, ctx.sessionId))) {
      results.push(emptyResult(slot.name))
    } else active.push(slot)
  }
  const depth = depthOnce(ctx)
  const groups = new Map<number, Array<{ slot: DiceSlotConfig; dice: number }>>()
  for (const slot of active) {
    const group = groups.get(slot.die) ?? []
    group.push({ slot, dice: await diceCount(host, slot, ctx, depth) })
    groups.set(slot.die, group)
  }
  const rng = rngOf(host)
  for (const [die, group] of groups) {
    const base = group.some((g) => g.dice > 0) ? rollDice(1, die, rng)[0] : 0
    for (const { slot, dice } of group) {
      if (dice <= 0) {
        results.push(emptyResult(slot.name))
        continue
      }
      // `single` sees only the base roll; `fixed`/`accumulator` add `dice − 1` bonus dice.
      const result = evaluate(slot, [base, ...rollDice(dice - 1, die, rng)])
      if (result.triggered) await applyTrigger(host, slot, ctx, depth)
      results.push(result)
    }
  }
  return { results, slots }
}

/** R7: an accumulator with `resetOnTrigger` restarts at the current depth; `per-session` cools down. */
async function applyTrigger(
  host: DiceHost,
  slot: DiceSlotConfig,
  ctx: CoreCheckContext,
  depth: () => Promise<number | undefined>,
): Promise<void> {
  if (slot.type === 'accumulator' && slot.resetOnTrigger) {
    await host.saveState(slot.name, ctx.sessionId, {
      depth_at_last_trigger: (await depth()) ?? 0,
      last_reset: nowIso(host),
    })
  }
  if (slot.cooldown === 'per-session') await host.markTriggered(slot.name, ctx.sessionId)
}

/** Clears state and cooldown of every `clearOnSessionStart` slot; returns their names. */
export async function sessionStart(
  host: DiceHost,
  ctx: Pick<CoreCheckContext, 'sessionId'>,
): Promise<string[]> {
  const cleared: string[] = []
  for (const slot of await validSlots(host)) {
    if (!slot.clearOnSessionStart) continue
    await host.clearState(slot.name, ctx.sessionId)
    await host.clearCooldown(slot.name, ctx.sessionId)
    cleared.push(slot.name)
  }
  return cleared
}

/** Writes `{0, now}` and removes the marker; false when the slot does not exist. */
export async function clearSlot(
  host: DiceHost,
  name: string,
  ctx: Pick<CoreCheckContext, 'sessionId'>,
): Promise<boolean> {
  if (!(await host.getSlot(name))) return false
  await host.clearState(name, ctx.sessionId)
  await host.clearCooldown(name, ctx.sessionId)
  return true
}

/** Restarts accumulation at the current depth, or the −1 sentinel when it is unknown. */
export async function resetSlot(host: DiceHost, name: string, ctx: CoreCheckContext): Promise<boolean> {
  if (!(await host.getSlot(name))) return false
  const depth = await ctx.getCurrentDepth()
  await host.saveState(name, ctx.sessionId, { depth_at_last_trigger: depth ?? -1, last_reset: nowIso(host) })
  return true
}

/** A stored slot, validated; null when absent, `InvalidSlotError` when it cannot be rolled. */
export async function requireValidSlot(host: DiceHost, name: string): Promise<DiceSlotConfig | null> {
  const record = await host.getSlot(name)
  if (!record) return null
  const check = checkSlot(record, name)
  if (!check.ok) throw new InvalidSlotError(name, check.reason)
  return check.slot
}

/** Read-only status (R8): never writes, not even a calibration. */
export async function status(
  host: DiceHost,
  name: string,
  ctx: CoreCheckContext,
): Promise<SlotStatus | null> {
  const slot = await requireValidSlot(host, name)
  if (!slot) return null
  let dice = slot.type === 'fixed' ? slot.fixedCount : 1
  let currentDepth = 0
  let depthSinceTrigger = 0
  let nextDiceAt = 0
  if (slot.type === 'accumulator') {
    const reading = readAccumulator(
      slot,
      await ctx.getCurrentDepth(),
      await host.loadState(name, ctx.sessionId),
      nowIso(host),
    )
    dice = reading.diceCount
    currentDepth = reading.currentDepth
    depthSinceTrigger = reading.depthSinceTrigger
    nextDiceAt = reading.fromDepth + (dice + 1) * slot.accumulationRate
  }
  return {
    name: slot.name,
    type: slot.type,
    diceCount: dice,
    currentDepth,
    depthSinceTrigger,
    probability: calculateProbability(dice, slot.die, slot.target, slot.targetMode),
    nextDiceAt,
    sessionId: ctx.sessionId,
    cooldownActive: slot.cooldown === 'per-session' && (await host.hasCooldown(name, ctx.sessionId)),
  }
}

/** A dry-run roll of `dice` dice: no shared pool, no side effects. */
export function preview(slot: DiceSlotConfig, dice: number, rng: () => number = Math.random): DiceResult {
  if (dice <= 0) return emptyResult(slot.name)
  return evaluate(slot, rollDice(dice, slot.die, rng))
}
