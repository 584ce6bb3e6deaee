// A8: detached runs are tracked, aborted (group killed) and drained.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createDetachedRuns, createHookBackend, type HookOutput, runHook } from '../src/index.ts'
import { alive, readPid, tempDir } from './helpers.ts'

const fast = createHookBackend({ graceMs: 200 })

describe('A8 detached runs', () => {
  it('A8 drain aborts a tracked sleep 600 hook, settles after its chain, and the pid is gone; nothing acts after', async () => {
    const dir = await tempDir()
    const runs = createDetachedRuns()
    const acted: HookOutput[] = []
    const chain = runs.track(
      runHook(
        fast,
        { command: 'echo $$ > pid; exec sleep 600' },
        {
          dialect: 'claude',
          event: 'SessionStart',
          payload: {},
          cwd: dir,
          signal: runs.signal,
        },
      ).then((out) => {
        // The continuation checks the signal before acting (no late injection).
        if (!runs.signal.aborted) acted.push(out)
        return out
      }),
    )
    while (!existsSync(join(dir, 'pid'))) await new Promise((r) => setTimeout(r, 10))
    expect(runs.pending).toBe(1)
    await runs.drain()
    expect(runs.pending).toBe(0)
    expect(await chain).toMatchObject({ failed: true, aborted: true })
    expect(acted).toEqual([])
    expect(await alive(await readPid(join(dir, 'pid')))).toBe(false)
  })

  it('A8 drain never rejects, waits for chains tracked while draining, and a run tracked after drain starts nothing', async () => {
    const runs = createDetachedRuns()
    let release!: () => void
    const slow = new Promise<void>((r) => (release = r))
    void runs.track(Promise.reject(new Error('chain failed'))).catch(() => {})
    const late: string[] = []
    void runs.track(
      slow.then(() => {
        void runs.track(Promise.resolve().then(() => late.push('tracked during drain')))
      }),
    )
    const drained = runs.drain()
    release()
    await expect(drained).resolves.toBeUndefined()
    expect(late).toEqual(['tracked during drain'])
    const dir = await tempDir()
    const after = await runHook(
      fast,
      { command: 'touch ran' },
      {
        dialect: 'claude',
        event: 'SessionStart',
        payload: {},
        cwd: dir,
        signal: runs.signal,
      },
    )
    expect(after.aborted).toBe(true)
    expect(existsSync(join(dir, 'ran'))).toBe(false)
  })
})
