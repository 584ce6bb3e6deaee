// `agent-dice`: the public agent-dice library facade. Every function keeps the public name and its
// sync/async signature (pinned by a test), so consumers such as cc-reflection keep working. Unlike the
// core, this legacy surface reads the process environment, as the public one did: the base folder
// follows `AGENT_DICE_BASE`/`CC_DICE_BASE`/`AGENT_DICE_HOST`, the session the session env vars.
import { readAccumulator } from './core/accumulator.ts'
import * as engine from './core/engine.ts'
import { applyPlaceholders as expand, renderTrigger as render } from './core/render.ts'
import { rollDice as roll } from './core/roll.ts'
import type { CoreCheckContext, DiceResult, DiceSlotConfig, DiceState, SlotStatus } from './core/types.ts'
import { validateName as checkName } from './core/validate.ts'
import { countClaudeUserTurns, findClaudeTranscript } from './depth/claude.ts'
import { CLI_HOSTS, type HostEnvironment, type HostKind, resolveBase } from './host/env.ts'
import { envSessionId, projectHash, sessionFromTranscriptPath } from './host/session.ts'
import { FileDiceStore } from './store/file-store.ts'

export type {
  DiceHost,
  CoreCheckContext,
  DiceResult,
  DiceSlotConfig,
  DiceState,
  SlotStatus,
} from './core/types.ts'
export { calculateProbability, cumulativeProbability, oddsTable } from './core/probability.ts'
export { checkTarget, findTriggerValue } from './core/roll.ts'
export { FileDiceStore } from './store/file-store.ts'

/** Where a legacy call finds its session and transcript. */
export interface CheckContext {
  transcriptPath?: string
  sessionId?: string
}

/** The Stop hook payload fields the public helpers read. */
export interface StopHookInput {
  session_id: string
  transcript_path: string
  [key: string]: unknown
}

const processEnv = (): HostEnvironment => ({ env: process.env, cwd: process.cwd() })

function processHost(): HostKind {
  const value = process.env.AGENT_DICE_HOST
  return value && (CLI_HOSTS as readonly string[]).includes(value) ? (value as HostKind) : 'claude'
}

const store = () => new FileDiceStore(getBaseDir())

/** The base folder (R13); throws `Cannot resolve base dir: …` without a home or override. */
export function getBaseDir(): string {
  return resolveBase(processHost(), processEnv())
}

/** Throws for a name that may not become part of a file name. */
export function validateName(name: string, label = 'slot name'): void {
  checkName(name, label)
}

export async function registerSlot(
  config: Partial<DiceSlotConfig> & {
    name: string
    die: number
    target: number
    onTrigger: { message: string }
  },
): Promise<DiceSlotConfig> {
  return store().register(config)
}

export async function unregisterSlot(name: string): Promise<boolean> {
  return store().unregister(name)
}

export async function getSlot(name: string): Promise<DiceSlotConfig | null> {
  return store().getSlot(name)
}

export async function listSlots(): Promise<DiceSlotConfig[]> {
  return store().listSlots()
}

export async function loadState(slotName: string, sessionId: string): Promise<DiceState> {
  return store().loadState(slotName, sessionId)
}

export async function saveState(slotName: string, sessionId: string, state: DiceState): Promise<void> {
  return store().saveState(slotName, sessionId, state)
}

/** Sets `depth_at_last_trigger` to `currentDepth` (−1 = the "unknown depth" sentinel). */
export async function resetState(slotName: string, sessionId: string, currentDepth: number): Promise<void> {
  return store().saveState(slotName, sessionId, {
    depth_at_last_trigger: currentDepth,
    last_reset: new Date().toISOString(),
  })
}

export async function clearState(slotName: string, sessionId: string): Promise<void> {
  return store().clearState(slotName, sessionId)
}

export async function hasCooldown(slotName: string, sessionId: string): Promise<boolean> {
  return store().hasCooldown(slotName, sessionId)
}

export async function markTriggered(slotName: string, sessionId: string): Promise<void> {
  return store().markTriggered(slotName, sessionId)
}

/** Synchronous, as in the public version. */
export function clearCooldown(slotName: string, sessionId: string): void {
  process.getBuiltinModule('node:fs').rmSync(store().markerPath(slotName, sessionId), { force: true })
}

export function rollDice(count: number, dieSize: number, rng: () => number = Math.random): number[] {
  return roll(count, dieSize, rng)
}

/** The Claude transcript of `sessionId` (or of the env session), else the newest in the project. */
export function getTranscriptPath(sessionId?: string): string | null {
  try {
    return findClaudeTranscript(processEnv(), sessionId ?? envSessionId(processEnv())) ?? null
  } catch {
    return null
  }
}

/** User prompts in a Claude transcript (tool results excluded); a missing file counts 0. */
export async function countExchanges(transcriptPath: string): Promise<number> {
  return countClaudeUserTurns(transcriptPath)
}

export function getClaudeSessionId(): string | null {
  return envSessionId(processEnv()) ?? null
}

export function getSessionId(): string {
  return envSessionId(processEnv()) ?? projectHash(processEnv())
}

export function extractSessionFromPath(transcriptPath: string): string | undefined {
  return sessionFromTranscriptPath(transcriptPath)
}

export function getProjectHash(): string {
  return projectHash(processEnv())
}

export async function parseStopHookInput(): Promise<StopHookInput> {
  try {
    const chunks: Buffer[] = []
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as StopHookInput
  } catch {
    // Unparseable input counts as empty.
  }
  return { session_id: '', transcript_path: '' }
}

/** Exits 2 with the expanded message on stderr when `result` hit, else 0 (the public helper). */
export function exitWithResult(result: DiceResult, slotConfig: DiceSlotConfig): never {
  if (result.triggered) {
    process.stderr.write(`${expand(slotConfig.onTrigger.message, result)}\n`)
    process.exit(2)
  }
  process.exit(0)
}

function resolveContext(ctx: CheckContext): CoreCheckContext {
  const sessionId =
    ctx.sessionId ||
    (ctx.transcriptPath ? sessionFromTranscriptPath(ctx.transcriptPath) : undefined) ||
    getSessionId()
  let depth: Promise<number | undefined> | undefined
  return {
    sessionId,
    getCurrentDepth: () => {
      depth ??= Promise.resolve(ctx.transcriptPath ? countClaudeUserTurns(ctx.transcriptPath) : undefined)
      return depth
    },
  }
}

/** Accumulator reading for a session; persists a sentinel calibration as the public one did. */
export async function getAccumulatorDiceCount(
  config: DiceSlotConfig,
  sessionId: string,
  ctx: CheckContext,
): Promise<{ diceCount: number; currentDepth: number; depthSinceTrigger: number }> {
  const host = store()
  const depth = await resolveContext(ctx).getCurrentDepth()
  const reading = readAccumulator(
    config,
    depth,
    await host.loadState(config.name, sessionId),
    new Date().toISOString(),
  )
  if (reading.calibratedState) await host.saveState(config.name, sessionId, reading.calibratedState)
  return {
    diceCount: reading.diceCount,
    currentDepth: reading.currentDepth,
    depthSinceTrigger: reading.depthSinceTrigger,
  }
}

/** A dry-run roll: no shared pool, no side effects. */
export function previewSlot(config: DiceSlotConfig, diceCount: number, rng?: () => number): DiceResult {
  return engine.preview(config, diceCount, rng)
}

export function renderTrigger(result: DiceResult, slot: DiceSlotConfig): string {
  return render(result, slot)
}

export function applyPlaceholders(message: string, result: DiceResult): string {
  return expand(message, result)
}

export async function checkAllSlots(ctx: CheckContext = {}): Promise<DiceResult[]> {
  return engine.checkAll(store(), resolveContext(ctx))
}

export async function getSlotStatus(name: string, ctx: CheckContext = {}): Promise<SlotStatus | null> {
  return engine.status(store(), name, resolveContext(ctx))
}

export async function resetSlot(name: string, ctx: CheckContext = {}): Promise<void> {
  await engine.resetSlot(store(), name, resolveContext(ctx))
}

export async function clearSlot(name: string, ctx: CheckContext = {}): Promise<void> {
  await engine.clearSlot(store(), name, resolveContext(ctx))
}

export async function sessionStart(ctx: CheckContext = {}): Promise<string[]> {
  return engine.sessionStart(store(), resolveContext(ctx))
}
