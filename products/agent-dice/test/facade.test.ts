import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as api from '../src/index.ts'
import { slot, tempDir } from './helpers.ts'

/** The public `src/index.ts` runtime surface: name → [sync|async, declared parameter count]. */
const PUBLIC: Record<string, ['sync' | 'async', number]> = {
  registerSlot: ['async', 1],
  unregisterSlot: ['async', 1],
  getSlot: ['async', 1],
  listSlots: ['async', 0],
  getBaseDir: ['sync', 0],
  validateName: ['sync', 1],
  loadState: ['async', 2],
  saveState: ['async', 3],
  resetState: ['async', 3],
  clearState: ['async', 2],
  hasCooldown: ['async', 2],
  markTriggered: ['async', 2],
  clearCooldown: ['sync', 2],
  rollDice: ['sync', 2],
  checkTarget: ['sync', 3],
  findTriggerValue: ['sync', 3],
  calculateProbability: ['sync', 4],
  getTranscriptPath: ['sync', 1],
  countExchanges: ['async', 1],
  getClaudeSessionId: ['sync', 0],
  getSessionId: ['sync', 0],
  extractSessionFromPath: ['sync', 1],
  getProjectHash: ['sync', 0],
  parseStopHookInput: ['async', 0],
  exitWithResult: ['sync', 2],
  getAccumulatorDiceCount: ['async', 3],
  previewSlot: ['sync', 3],
  renderTrigger: ['sync', 2],
  applyPlaceholders: ['sync', 2],
  checkAllSlots: ['async', 0],
  getSlotStatus: ['async', 1],
  resetSlot: ['async', 1],
  clearSlot: ['async', 1],
  sessionStart: ['async', 0],
}

const saved: Record<string, string | undefined> = {}
let base = ''
beforeAll(() => {
  for (const k of [
    'AGENT_DICE_BASE',
    'CC_DICE_BASE',
    'AGENT_DICE_HOST',
    'AGENT_DICE_SESSION_ID',
    'CC_DICE_SESSION_ID',
  ]) {
    saved[k] = process.env[k]
    delete process.env[k]
  }
  base = tempDir()
  process.env.AGENT_DICE_BASE = base
  process.env.AGENT_DICE_SESSION_ID = 'facade-1'
})
afterAll(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k]
    else process.env[k] = v
  }
})

describe('R1 facade', () => {
  it('R1 keeps every public function name with its sync/async kind and parameter count', () => {
    const surface = api as unknown as Record<string, unknown>
    for (const [name, [kind, arity]] of Object.entries(PUBLIC)) {
      const fn = surface[name]
      expect(typeof fn, name).toBe('function')
      expect((fn as { constructor: { name: string } }).constructor.name, name).toBe(
        kind === 'async' ? 'AsyncFunction' : 'Function',
      )
      expect((fn as (...a: unknown[]) => unknown).length, name).toBe(arity)
    }
  })
  it('R1 the facade works over the process environment like the public one', async () => {
    expect(api.getBaseDir()).toBe(base)
    await api.registerSlot({
      ...slot({ name: 'd1', type: 'single', die: 1, target: 1 }),
      onTrigger: { message: 'hit {best} {best}' },
    })
    expect((await api.listSlots()).map((s) => s.name)).toEqual(['d1'])
    const [result] = await api.checkAllSlots()
    expect(result.triggered).toBe(true)
    expect(await api.hasCooldown('d1', 'facade-1')).toBe(true)
    api.clearCooldown('d1', 'facade-1')
    expect(await api.hasCooldown('d1', 'facade-1')).toBe(false)
    expect(api.renderTrigger(result, (await api.getSlot('d1'))!)).toBe('🎲 Nat 1! hit 1 1')
    expect(api.getSessionId()).toBe('facade-1')
    expect(api.getClaudeSessionId()).toBe('facade-1')
    expect(api.extractSessionFromPath('/x/abc-123.jsonl')).toBe('abc-123')
    expect(api.getProjectHash()).toMatch(/^[0-9a-f]{12}$/)
    expect(() => api.validateName('../x')).toThrow('Invalid slot name')
    expect(api.rollDice(3, 6)).toHaveLength(3)
    await api.resetState('d1', 'facade-1', 4)
    expect((await api.loadState('d1', 'facade-1')).depth_at_last_trigger).toBe(4)
    expect(await api.sessionStart()).toEqual(['d1'])
    expect((await api.loadState('d1', 'facade-1')).depth_at_last_trigger).toBe(0)
    expect(await api.unregisterSlot('d1')).toBe(true)
  })
  it('R1 countExchanges and getAccumulatorDiceCount read a Claude transcript (and calibrate like the public one)', async () => {
    const dir = tempDir()
    mkdirSync(join(dir, 'p'))
    const transcript = join(dir, 'p', 'sess.jsonl')
    writeFileSync(transcript, `${JSON.stringify({ type: 'user', message: { content: 'q' } })}\n`.repeat(14))
    expect(await api.countExchanges(transcript)).toBe(14)
    const acc = slot({ name: 'acc' })
    await api.saveState('acc', 'sess', { depth_at_last_trigger: -1, last_reset: 't' })
    expect(await api.getAccumulatorDiceCount(acc, 'sess', { transcriptPath: transcript })).toEqual({
      diceCount: 0,
      currentDepth: 14,
      depthSinceTrigger: 0,
    })
    expect(JSON.parse(readFileSync(join(base, 'state', 'acc-sess.json'), 'utf8')).depth_at_last_trigger).toBe(
      14,
    )
  })
})
