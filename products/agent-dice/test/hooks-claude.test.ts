import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { cleanEnv, ensureBuilt, runNode, slot, tempDir } from './helpers.ts'

const STOP = 'hooks/agent-dice-claude-stop.js'
const START = 'hooks/agent-dice-claude-session-start.js'

function fakeHome(slots: Record<string, unknown>) {
  const home = tempDir()
  const base = join(home, '.claude', 'dice')
  mkdirSync(base, { recursive: true })
  writeFileSync(join(base, 'slots.json'), JSON.stringify(slots, null, 2))
  const cwd = tempDir()
  const projects = join(home, '.claude', 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'))
  mkdirSync(projects, { recursive: true })
  return { home, base, cwd, projects }
}

const payload = (extra: Record<string, unknown>) =>
  JSON.stringify({
    session_id: 'sess-1',
    transcript_path: '/nonexistent/sess-1.jsonl',
    cwd: '/w',
    hook_event_name: 'Stop',
    stop_hook_active: false,
    ...extra,
  })

beforeAll(() => ensureBuilt())

describe('R20 Claude Stop hook (real process, Claude-Code-shaped stdin)', () => {
  it('R20 an empty registry exits 0 and stays silent', async () => {
    const { home, cwd } = fakeHome({})
    const r = await runNode(STOP, [], { env: cleanEnv({ HOME: home }), input: payload({}), cwd })
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' })
  })
  it('R20 a certain d1 trigger exits 2 with the flavour line and message on stderr, and marks cooldown', async () => {
    const { home, base, cwd } = fakeHome({
      d1: slot({
        name: 'd1',
        type: 'single',
        die: 1,
        target: 1,
        onTrigger: { message: 'Reflect on {slotName}.' },
      }),
    })
    const r = await runNode(STOP, [], { env: cleanEnv({ HOME: home }), input: payload({}), cwd })
    expect(r.code).toBe(2)
    expect(r.stderr).toBe('🎲 Nat 1! Reflect on d1.\n')
    expect(existsSync(join(base, 'state', 'triggered-d1-sess-1'))).toBe(true)
    const again = await runNode(STOP, [], { env: cleanEnv({ HOME: home }), input: payload({}), cwd })
    expect(again).toEqual({ code: 0, stdout: '', stderr: '' })
  })
  it('R20 stop_hook_active true with cooldown none exits 0 without rolling or writing (no endless loop)', async () => {
    const { home, base, cwd } = fakeHome({
      loop: slot({ name: 'loop', type: 'single', die: 1, target: 1, cooldown: 'none' }),
    })
    const first = await runNode(STOP, [], { env: cleanEnv({ HOME: home }), input: payload({}), cwd })
    expect(first.code).toBe(2)
    const continued = await runNode(STOP, [], {
      env: cleanEnv({ HOME: home }),
      input: payload({ stop_hook_active: true }),
      cwd,
    })
    expect(continued).toEqual({ code: 0, stdout: '', stderr: '' })
    expect(existsSync(join(base, 'state'))).toBe(false)
  })
  it('R20 malformed stdin exits 0 (and never throws past the hook)', async () => {
    const { home, cwd } = fakeHome({ acc: slot({ name: 'acc' }) })
    for (const input of ['{not json', '', '[1,2]', 'null']) {
      const r = await runNode(STOP, [], { env: cleanEnv({ HOME: home }), input, cwd })
      expect(r.code).toBe(0)
      expect(r.stderr).toBe('')
    }
  })
  it('R20 misses print the roll line on stdout; depth comes from the Claude transcript', async () => {
    const { home, cwd, projects } = fakeHome({
      f: slot({ name: 'f', type: 'fixed', die: 1_000_000, target: 1_000_000, fixedCount: 2 }),
      acc: slot({ name: 'acc', die: 1, target: 1, accumulationRate: 2 }),
    })
    const transcript = join(projects, 'sess-1.jsonl')
    const user = (t: string) => JSON.stringify({ type: 'user', message: { role: 'user', content: t } })
    writeFileSync(transcript, [user('a'), user('b'), user('c'), user('d')].join('\n'))
    const r = await runNode(STOP, [], {
      env: cleanEnv({ HOME: home }),
      input: payload({ transcript_path: transcript }),
      cwd,
    })
    expect(r.stdout).toMatch(/^f: 2d1000000 = \[\d+, \d+\] \(best: \d+\)\n$/)
    expect(r.code).toBe(2)
    expect(r.stderr).toBe('🎲 Nat 1! m\n')
    const state = JSON.parse(readFileSync(join(home, '.claude', 'dice', 'state', 'acc-sess-1.json'), 'utf8'))
    expect(state.depth_at_last_trigger).toBe(4)
  })
  it('R20 under DEBUG a failure is reported on stderr and still exits 0', async () => {
    const { home, base, cwd } = fakeHome({ d1: slot({ name: 'd1', type: 'single', die: 1, target: 1 }) })
    writeFileSync(join(base, 'state'), 'a file where the state folder should be')
    const r = await runNode(STOP, [], {
      env: cleanEnv({ HOME: home, DEBUG: 'agent-dice' }),
      input: payload({}),
      cwd,
    })
    expect(r.code).toBe(0)
    expect(r.stderr).toMatch(/^agent-dice stop hook error: /)
    const quiet = await runNode(STOP, [], { env: cleanEnv({ HOME: home }), input: payload({}), cwd })
    expect(quiet).toEqual({ code: 0, stdout: '', stderr: '' })
  })
  it('R20 with no home the hook exits 0', async () => {
    const r = await runNode(STOP, [], { env: cleanEnv({}), input: payload({}) })
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' })
  })
})

describe('R20 Claude SessionStart hook', () => {
  const slots = { a: slot({ name: 'a' }), keep: slot({ name: 'keep', clearOnSessionStart: false }) }
  const seed = (base: string) => {
    mkdirSync(join(base, 'state'), { recursive: true })
    writeFileSync(join(base, 'state', 'a-sess-1.json'), '{"depth_at_last_trigger": 9, "last_reset": "t"}')
    writeFileSync(join(base, 'state', 'triggered-a-sess-1'), 't')
    writeFileSync(join(base, 'state', 'triggered-keep-sess-1'), 't')
  }
  it('R20 startup, clear and a missing source clear (R27 fix 4); resume, compact and fork keep', async () => {
    for (const source of ['startup', 'clear', undefined]) {
      const { home, base, cwd } = fakeHome(slots)
      seed(base)
      const r = await runNode(START, [], {
        env: cleanEnv({ HOME: home }),
        input: JSON.stringify({ session_id: 'sess-1', source }),
        cwd,
      })
      expect(r).toEqual({ code: 0, stdout: '', stderr: '' })
      expect(
        JSON.parse(readFileSync(join(base, 'state', 'a-sess-1.json'), 'utf8')).depth_at_last_trigger,
      ).toBe(0)
      expect(existsSync(join(base, 'state', 'triggered-a-sess-1'))).toBe(false)
      expect(existsSync(join(base, 'state', 'triggered-keep-sess-1'))).toBe(true)
    }
    for (const source of ['resume', 'compact', 'fork']) {
      const { home, base, cwd } = fakeHome(slots)
      seed(base)
      const r = await runNode(START, [], {
        env: cleanEnv({ HOME: home }),
        input: JSON.stringify({ session_id: 'sess-1', source }),
        cwd,
      })
      expect(r.code).toBe(0)
      expect(existsSync(join(base, 'state', 'triggered-a-sess-1'))).toBe(true)
    }
  })
  it('R20 the env file gains exactly the two export lines; stdout stays empty', async () => {
    const { home, cwd } = fakeHome({})
    const envFile = join(tempDir(), 'env.sh')
    writeFileSync(envFile, 'export EXISTING=1\n')
    const r = await runNode(START, [], {
      env: cleanEnv({ HOME: home, CLAUDE_ENV_FILE: envFile }),
      input: JSON.stringify({ session_id: 'abc.123', source: 'resume' }),
      cwd,
    })
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' })
    expect(readFileSync(envFile, 'utf8')).toBe(
      'export EXISTING=1\nexport AGENT_DICE_SESSION_ID="abc.123"\nexport CC_DICE_SESSION_ID="abc.123"\n',
    )
    const bad = await runNode(START, [], {
      env: cleanEnv({ HOME: home, CLAUDE_ENV_FILE: envFile }),
      input: JSON.stringify({ session_id: '$(rm -rf /)' }),
      cwd,
    })
    expect(bad.code).toBe(0)
    expect(readFileSync(envFile, 'utf8').match(/AGENT_DICE_SESSION_ID/g)).toHaveLength(1)
  })
})

describe('R8 (90-quality) concurrent Stop hooks', () => {
  it('R8 20 Stop hooks of different sessions at once leave every file valid and no marker lost', async () => {
    const { home, base, cwd } = fakeHome({
      hit: slot({ name: 'hit', type: 'single', die: 1, target: 1 }),
      acc: slot({ name: 'acc', die: 1, target: 1, accumulationRate: 1 }),
      miss: slot({ name: 'miss', type: 'fixed', die: 1000, target: 1000, fixedCount: 3, cooldown: 'none' }),
    })
    const slotsBefore = readFileSync(join(base, 'slots.json'), 'utf8')
    const transcriptDir = tempDir()
    const runs = Array.from({ length: 20 }, (_, i) => {
      const transcript = join(transcriptDir, `s${i}.jsonl`)
      writeFileSync(
        transcript,
        `${JSON.stringify({ type: 'user', message: { content: 'x' } })}\n`.repeat(i + 1),
      )
      return runNode(STOP, [], {
        env: cleanEnv({ HOME: home }),
        input: JSON.stringify({ session_id: `s${i}`, transcript_path: transcript, stop_hook_active: false }),
        cwd,
      })
    })
    const results = await Promise.all(runs)
    expect(results.every((r) => r.code === 2)).toBe(true)
    expect(readFileSync(join(base, 'slots.json'), 'utf8')).toBe(slotsBefore)
    const files = readdirSync(join(base, 'state'))
    expect(files.filter((f) => f.startsWith('.'))).toEqual([])
    for (let i = 0; i < 20; i++) {
      expect(files).toContain(`triggered-hit-s${i}`)
      expect(files).toContain(`triggered-acc-s${i}`)
      const state = JSON.parse(readFileSync(join(base, 'state', `acc-s${i}.json`), 'utf8'))
      expect(state.depth_at_last_trigger).toBe(i + 1)
    }
    for (const f of files.filter((n) => n.endsWith('.json')))
      expect(() => JSON.parse(readFileSync(join(base, 'state', f), 'utf8'))).not.toThrow()
  })
})
