import { spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkAll } from '../src/core/engine.ts'
import { FileDiceStore } from '../src/store/file-store.ts'
import { ctx, NODE, PACKAGE_ROOT, slot, tempDir } from './helpers.ts'

/** Bytes the public version writes for `register reflection` with cc-reflection's flags. */
const PUBLIC_REFLECTION = `{
  "reflection": {
    "targetMode": "exact",
    "type": "accumulator",
    "accumulationRate": 7,
    "maxDice": 100,
    "fixedCount": 1,
    "cooldown": "per-session",
    "clearOnSessionStart": true,
    "resetOnTrigger": true,
    "flavor": true,
    "name": "reflection",
    "die": 20,
    "target": 20,
    "onTrigger": {
      "message": "Invoke /reflection before ending. 吾日三省吾身"
    }
  }
}`

describe('R14 layout and bytes', () => {
  it('R14 public-version fixtures read back identically and state/marker files keep their format', async () => {
    const base = tempDir()
    mkdirSync(join(base, 'state'))
    writeFileSync(join(base, 'slots.json'), PUBLIC_REFLECTION)
    writeFileSync(
      join(base, 'state', 'reflection-abc.json'),
      '{\n  "depth_at_last_trigger": 14,\n  "last_reset": "2026-01-01T00:00:00.000Z"\n}',
    )
    writeFileSync(join(base, 'state', 'triggered-reflection-abc'), '2026-01-01T00:00:00.000Z')
    const store = new FileDiceStore(base, { now: () => Date.parse('2026-02-02T00:00:00.000Z') })
    const [reflection] = await store.listSlots()
    expect(reflection.onTrigger.message).toBe('Invoke /reflection before ending. 吾日三省吾身')
    expect(await store.loadState('reflection', 'abc')).toEqual({
      depth_at_last_trigger: 14,
      last_reset: '2026-01-01T00:00:00.000Z',
    })
    expect(await store.hasCooldown('reflection', 'abc')).toBe(true)
    await store.saveState('reflection', 'xyz', {
      depth_at_last_trigger: 3,
      last_reset: '2026-01-01T00:00:00.000Z',
    })
    expect(readFileSync(join(base, 'state', 'reflection-xyz.json'), 'utf8')).toBe(
      '{\n  "depth_at_last_trigger": 3,\n  "last_reset": "2026-01-01T00:00:00.000Z"\n}',
    )
    await store.markTriggered('reflection', 'xyz')
    expect(readFileSync(join(base, 'state', 'triggered-reflection-xyz'), 'utf8')).toBe(
      '2026-02-02T00:00:00.000Z',
    )
  })
  it('R14 registering the cc-reflection slot yields the public bytes exactly', () => {
    const store = new FileDiceStore(tempDir())
    store.register({
      name: 'reflection',
      die: 20,
      target: 20,
      targetMode: 'exact',
      type: 'accumulator',
      accumulationRate: 7,
      maxDice: 100,
      fixedCount: 1,
      cooldown: 'per-session',
      clearOnSessionStart: true,
      resetOnTrigger: true,
      flavor: true,
      onTrigger: { message: 'Invoke /reflection before ending. 吾日三省吾身' },
    })
    expect(readFileSync(store.slotsFile, 'utf8')).toBe(PUBLIC_REFLECTION)
  })
  it('R14 a corrupt slots.json reads as {} and a corrupt state file as {0, now}', async () => {
    const base = tempDir()
    mkdirSync(join(base, 'state'))
    writeFileSync(join(base, 'slots.json'), '{not json')
    writeFileSync(join(base, 'state', 'a-s.json'), 'garbage')
    const store = new FileDiceStore(base, { now: () => 0 })
    expect(await store.listSlots()).toEqual([])
    expect(await store.loadState('a', 's')).toEqual({
      depth_at_last_trigger: 0,
      last_reset: '1970-01-01T00:00:00.000Z',
    })
  })
})

describe('R12 registry writes', () => {
  it('R12 an invalid slot writes nothing; unknown keys of other slots survive rewrites', () => {
    const base = tempDir()
    const original = JSON.stringify({ keep: { ...slot({ name: 'keep' }), custom: { x: 1 } } }, null, 2)
    writeFileSync(join(base, 'slots.json'), original)
    const store = new FileDiceStore(base)
    expect(() => store.register({ ...slot({ name: 'bad' }), target: 99 })).toThrow('Invalid target "99"')
    expect(readFileSync(store.slotsFile, 'utf8')).toBe(original)
    store.register(slot({ name: 'added' }))
    const stored = JSON.parse(readFileSync(store.slotsFile, 'utf8'))
    expect(stored.keep.custom).toEqual({ x: 1 })
    expect(Object.keys(stored)).toEqual(['keep', 'added'])
    expect(store.unregister('added')).toBe(true)
    expect(store.unregister('added')).toBe(false)
  })
})

describe('R15 safe writes', () => {
  it('R15 a write killed after the temp write leaves the old file intact', () => {
    const base = tempDir()
    const target = join(base, 'slots.json')
    writeFileSync(target, '{"old": true}')
    const script = `
      import { writeFileAtomic } from ${JSON.stringify(join(PACKAGE_ROOT, 'src/store/atomic.ts'))}
      writeFileAtomic(${JSON.stringify(target)}, '{"new": true}', { afterTempWrite: () => process.kill(process.pid, 'SIGKILL') })
    `
    const r = spawnSync(NODE, ['--input-type=module', '-e', script], { encoding: 'utf8' })
    expect(r.signal).toBe('SIGKILL')
    expect(readFileSync(target, 'utf8')).toBe('{"old": true}')
    const leftovers = readdirSync(base).filter((n) => n.startsWith('.slots.json.'))
    expect(leftovers).toHaveLength(1)
    expect(leftovers[0]).toMatch(/^\.slots\.json\.\d+\.[a-z0-9]+\.tmp$/)
  })
  it('R15 session "../x" and bad slot names are rejected before any path is built', async () => {
    const base = tempDir()
    const store = new FileDiceStore(base)
    await expect(store.saveState('a', '../x', { depth_at_last_trigger: 0, last_reset: 't' })).rejects.toThrow(
      'Invalid session id "../x"',
    )
    await expect(store.markTriggered('../a', 's')).rejects.toThrow('Invalid slot name')
    expect(existsSync(join(base, 'x.json'))).toBe(false)
    expect(existsSync(join(base, 'state'))).toBe(false)
  })
  it('R15 the engine over the file store rolls a dotted session id (R27 fix 9)', async () => {
    const store = new FileDiceStore(tempDir())
    store.register(slot({ name: 'd1', type: 'single', die: 1, target: 1 }))
    const [r] = await checkAll(store, ctx('abc.def-1'))
    expect(r.triggered).toBe(true)
    expect(await store.hasCooldown('d1', 'abc.def-1')).toBe(true)
  })
})

describe('private store files (tack docs/decisions/0145-private-files.md)', () => {
  it('under umask 022 the registry, state and markers are 0600 in 0700 folders; an old 0755 state folder is tightened', async () => {
    const before = process.umask(0o022)
    try {
      const base = join(tempDir(), 'dice')
      const store = new FileDiceStore(base)
      store.register(slot({ name: 'reflection' }))
      await store.saveState('reflection', 'abc', { depth_at_last_trigger: 1, last_reset: 'x' })
      await store.markTriggered('reflection', 'abc')
      const mode = (p: string) => statSync(p).mode & 0o777
      expect([mode(base), mode(join(base, 'state'))]).toEqual([0o700, 0o700])
      expect([
        mode(join(base, 'slots.json')),
        mode(store.statePath('reflection', 'abc')),
        mode(store.markerPath('reflection', 'abc')),
      ]).toEqual([0o600, 0o600, 0o600])
      chmodSync(join(base, 'state'), 0o755)
      store.ensureLayout()
      expect(mode(join(base, 'state'))).toBe(0o700)
    } finally {
      process.umask(before)
    }
  })
})
