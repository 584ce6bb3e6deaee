import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { cleanEnv, ensureBuilt, runNode, slot, tempDir } from './helpers.ts'

const STOP = 'hooks/agent-dice-codex-stop.js'
const START = 'hooks/agent-dice-codex-session-start.js'
const SID = '019f4d75-c99d-7aa0-a9d7-698bb6e5b7df'

function codexHome(slots: Record<string, unknown>) {
  const home = tempDir()
  const codex = join(tempDir(), 'codex')
  const base = join(codex, 'dice')
  mkdirSync(base, { recursive: true })
  writeFileSync(join(base, 'slots.json'), JSON.stringify(slots, null, 2))
  return { home, codex, base, env: cleanEnv({ HOME: home, CODEX_HOME: codex }) }
}

/** A rollout with `users` user messages (the environment context counts as one of them). */
function writeRollout(codex: string, users: number) {
  const day = join(codex, 'sessions', '2026', '07', '19')
  mkdirSync(day, { recursive: true })
  const lines = [JSON.stringify({ type: 'session_meta', payload: { id: SID } })]
  for (let i = 0; i < users; i++) {
    lines.push(
      JSON.stringify({
        type: 'response_item',
        payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: `q${i}` }] },
      }),
    )
    lines.push(
      JSON.stringify({ type: 'response_item', payload: { type: 'message', role: 'assistant', content: [] } }),
    )
    lines.push(
      JSON.stringify({ type: 'response_item', payload: { type: 'function_call_output', output: 'user' } }),
    )
  }
  writeFileSync(join(day, `rollout-2026-07-19T19-51-49-${SID}.jsonl`), lines.join('\n'))
}

const stopPayload = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    session_id: SID,
    turn_id: 't1',
    cwd: '/w',
    hook_event_name: 'Stop',
    model: 'gpt',
    stop_hook_active: false,
    last_assistant_message: 'done',
    ...extra,
  })

beforeAll(() => ensureBuilt())

describe('R21 Codex Stop hook (real process, Codex-shaped stdin without transcript_path)', () => {
  it('R21 an empty registry exits 0 and prints nothing', async () => {
    const { env } = codexHome({})
    expect(await runNode(STOP, [], { env, input: stopPayload() })).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
    })
  })
  it('R21 a certain d1 trigger exits 2 with the nudge on stderr and an empty stdout', async () => {
    const { env, base } = codexHome({
      d1: slot({ name: 'd1', type: 'single', die: 1, target: 1, onTrigger: { message: 'Check tests.' } }),
    })
    const r = await runNode(STOP, [], { env, input: stopPayload() })
    expect(r).toEqual({ code: 2, stdout: '', stderr: '🎲 Nat 1! Check tests.\n' })
    expect(existsSync(join(base, 'state', `triggered-d1-${SID}`))).toBe(true)
  })
  it('R21 depth comes from the rollout found by session id; misses go to stderr only under DEBUG', async () => {
    const { env, codex, base } = codexHome({
      acc: slot({ name: 'acc', die: 1, target: 1, accumulationRate: 7 }),
      miss: slot({ name: 'miss', type: 'fixed', die: 1_000_000, target: 1_000_000, cooldown: 'none' }),
    })
    writeRollout(codex, 14)
    const r = await runNode(STOP, [], { env, input: stopPayload() })
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr).toBe('🎲 Nat 1! m\n')
    expect(
      JSON.parse(readFileSync(join(base, 'state', `acc-${SID}.json`), 'utf8')).depth_at_last_trigger,
    ).toBe(14)
    const debug = await runNode(STOP, [], { env: { ...env, DEBUG: '1' }, input: stopPayload() })
    expect(debug.code).toBe(0)
    expect(debug.stdout).toBe('')
    expect(debug.stderr).toMatch(/^miss: 1d1000000 = \[\d+\] \(best: \d+\)\n$/)
  })
  it('R21 stop_hook_active true with cooldown none exits 0 without rolling; malformed stdin exits 0', async () => {
    const { env, base } = codexHome({
      loop: slot({ name: 'loop', type: 'single', die: 1, target: 1, cooldown: 'none' }),
    })
    expect(await runNode(STOP, [], { env, input: stopPayload({ stop_hook_active: true }) })).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
    })
    expect(existsSync(join(base, 'state'))).toBe(false)
    const bad = await runNode(STOP, [], { env: codexHome({}).env, input: '{"session_id": ' })
    expect(bad).toEqual({ code: 0, stdout: '', stderr: '' })
  })
})

describe('R21 Codex SessionStart hook', () => {
  it('R21 startup and clear clear; resume and compact keep; a missing source keeps', async () => {
    for (const [source, cleared] of [
      ['startup', true],
      ['clear', true],
      ['resume', false],
      ['compact', false],
      [undefined, false],
    ] as const) {
      const { env, base } = codexHome({ a: slot({ name: 'a' }) })
      mkdirSync(join(base, 'state'))
      writeFileSync(join(base, 'state', `triggered-a-${SID}`), 't')
      const r = await runNode(START, [], {
        env,
        input: JSON.stringify({ session_id: SID, hook_event_name: 'SessionStart', source }),
      })
      expect(r).toEqual({ code: 0, stdout: '', stderr: '' })
      expect(existsSync(join(base, 'state', `triggered-a-${SID}`))).toBe(!cleared)
    }
  })
  it('R21 appends the session and host exports to CODEX_ENV_FILE (else CLAUDE_ENV_FILE)', async () => {
    const { env } = codexHome({})
    const codexFile = join(tempDir(), 'codex.env')
    const claudeFile = join(tempDir(), 'claude.env')
    await runNode(START, [], {
      env: { ...env, CODEX_ENV_FILE: codexFile, CLAUDE_ENV_FILE: claudeFile },
      input: JSON.stringify({ session_id: SID, source: 'startup' }),
    })
    expect(readFileSync(codexFile, 'utf8')).toBe(
      `export AGENT_DICE_SESSION_ID="${SID}"\nexport CC_DICE_SESSION_ID="${SID}"\nexport AGENT_DICE_HOST=codex\n`,
    )
    expect(existsSync(claudeFile)).toBe(false)
    await runNode(START, [], { env: { ...env, CLAUDE_ENV_FILE: claudeFile }, input: '{}' })
    expect(readFileSync(claudeFile, 'utf8')).toBe('export AGENT_DICE_HOST=codex\n')
  })
})
