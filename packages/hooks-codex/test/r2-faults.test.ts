// R2 with Codex semantics, through the real loop: a hook that hangs (and forks), floods its output,
// prints invalid JSON or binary, exits 1, 2, 127 or dies by a signal. Every failure fails open: the
// call or turn goes on as if the hook had said nothing; a timed-out hook's process group is gone;
// captured output is bounded.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { text, toolCalls } from '@tack/agent/testing'
import { describe, expect, it } from 'vitest'
import {
  codexAgent,
  eventsOf,
  homes,
  hookResults,
  hooksJson,
  isGone,
  script,
  user,
  waitForLine,
  writeUserHooks,
} from './helpers.ts'

/** Runs one bash call (`touch ran.txt`) with `hook` as its PreToolUse hook; returns the agent. */
async function preToolUseWith(hookBody: string, timeout?: number) {
  const h = await homes()
  const hook = await script(h.work, 'hook.sh', hookBody)
  await writeUserHooks(h, hooksJson({ PreToolUse: [{ matcher: 'Bash', command: hook, timeout }] }))
  const t = await codexAgent({
    homes: h,
    script: [toolCalls([{ name: 'bash', args: { command: 'touch ran.txt' } }]), text('ok')],
  })
  return { h, t }
}

describe('R2 Codex hook faults', () => {
  it('R2 a hanging hook that forked a child is killed at its timeout with its whole group; the call proceeds', async () => {
    const { h, t } = await preToolUseWith(
      `(sleep 30 & echo $! > "$(dirname "$0")/child"; wait) & echo $$ > "$(dirname "$0")/pid"; sleep 30`,
      1,
    )
    try {
      const outcome = await t.agent.send(user('go'))
      expect(outcome.reason).toEqual({ kind: 'completed' })
      expect(existsSync(join(h.workspace, 'ran.txt'))).toBe(true)
      expect(hookResults(t)[0]).toMatchObject({ decision: 'pass', failed: true, timedOut: true })
      expect(isGone(Number(await waitForLine(join(h.work, 'pid'))))).toBe(true)
      expect(isGone(Number(await waitForLine(join(h.work, 'child'))))).toBe(true)
    } finally {
      await t.dispose()
    }
  })

  it('R2 a flood on stdout and stderr is bounded: the call proceeds and the stderr summary is 500 characters + …', async () => {
    const { h, t } = await preToolUseWith(
      'cat > /dev/null; head -c 5000000 /dev/zero | tr "\\0" x; head -c 3000000 /dev/zero | tr "\\0" e >&2',
    )
    try {
      await t.agent.send(user('go'))
      expect(existsSync(join(h.workspace, 'ran.txt'))).toBe(true)
      const [result] = hookResults(t)
      expect(result).toMatchObject({ decision: 'pass', exitCode: 0 })
      expect(result.stderrSummary).toBe(`${'e'.repeat(500)}…`)
      expect(JSON.stringify(t.events()).length).toBeLessThan(100_000)
    } finally {
      await t.dispose()
    }
  })

  it('R2 invalid JSON (`{"x":`) and a JSON array fail open; a failed hook never denies', async () => {
    for (const body of [`cat > /dev/null; echo '{"x":'`, `cat > /dev/null; echo '[1]'`]) {
      const { h, t } = await preToolUseWith(body)
      try {
        await t.agent.send(user('go'))
        expect(existsSync(join(h.workspace, 'ran.txt'))).toBe(true)
        expect(hookResults(t)[0]).toMatchObject({ decision: 'pass', exitCode: 0, failed: true })
      } finally {
        await t.dispose()
      }
    }
  })

  it('R2 binary stdout is plain text: ignored on PreToolUse, a failure on Stop (JSON or nothing)', async () => {
    const { h, t } = await preToolUseWith(`cat > /dev/null; printf 'bin\\000\\001\\377ary'`)
    try {
      await t.agent.send(user('go'))
      expect(existsSync(join(h.workspace, 'ran.txt'))).toBe(true)
      expect(hookResults(t)[0]).toMatchObject({ decision: 'pass', exitCode: 0 })
      expect(hookResults(t)[0].failed).toBeUndefined()
    } finally {
      await t.dispose()
    }
    const h2 = await homes()
    const stop = await script(h2.work, 'stop.sh', `cat > /dev/null; printf '\\000\\001\\377'`)
    await writeUserHooks(h2, hooksJson({ Stop: [{ command: stop }] }))
    const t2 = await codexAgent({ homes: h2, script: [text('done')] })
    try {
      expect((await t2.agent.send(user('go'))).reason).toEqual({ kind: 'completed' })
      expect(t2.model.requests).toHaveLength(1)
      expect(hookResults(t2)[0]).toMatchObject({ point: 'Stop', failed: true })
    } finally {
      await t2.dispose()
    }
  })

  it('R2 exit 1, exit 127 and death by a signal fail open; exit 2 with stderr denies', async () => {
    const cases: Array<[string, boolean, Record<string, unknown>]> = [
      [
        'cat > /dev/null; echo "{\\"decision\\":\\"block\\",\\"reason\\":\\"ignored on exit 1\\"}"; exit 1',
        true,
        { exitCode: 1, failed: true },
      ],
      ['cat > /dev/null; no-such-command-here', true, { exitCode: 127, failed: true }],
      ['cat > /dev/null; kill -9 $$', true, { failed: true }],
      ['cat > /dev/null; echo "stop right there" >&2; exit 2', false, { exitCode: 2, decision: 'deny' }],
    ]
    for (const [body, runs, expected] of cases) {
      const { h, t } = await preToolUseWith(body)
      try {
        const outcome = await t.agent.send(user('go'))
        expect(outcome.reason).toEqual({ kind: 'completed' })
        expect(existsSync(join(h.workspace, 'ran.txt'))).toBe(runs)
        expect(hookResults(t)[0]).toMatchObject(expected)
        const result = eventsOf(t, 'tool/result')[0].data
        expect(result.isError).toBe(!runs)
      } finally {
        await t.dispose()
      }
    }
  })

  it('R2 a hook that never reads its stdin still gets the payload written and closes cleanly', async () => {
    const { h, t } = await preToolUseWith('exit 0')
    try {
      await t.agent.send(user('go'))
      expect(existsSync(join(h.workspace, 'ran.txt'))).toBe(true)
      expect(hookResults(t)[0]).toMatchObject({ decision: 'pass', exitCode: 0 })
    } finally {
      await t.dispose()
    }
  })
})
