// The bash tool inside the real agent loop (scripted model only): the result is logged with its meta,
// and the spill file sits in the session's scratch folder.
import { readFile, realpath } from 'node:fs/promises'
import { join } from 'node:path'
import { createTestAgent, text, toolCalls } from '@tack/agent/testing'
import type { SessionEvent } from '@tack/session'
import { describe, expect, it } from 'vitest'
import { BashToolPlugin } from '../src/plugin.ts'
import { tempDir } from './helpers.ts'

describe('bash in the agent loop', () => {
  it("TL-17 a truncated call's spill file is <scratchRoot>/<session id>/bash-<callId>.log and the logged meta names it", async () => {
    const scratchRoot = await tempDir()
    const t = await createTestAgent({
      script: [toolCalls([{ name: 'bash', id: 'call_seq', args: { command: 'seq 1 3000' } }]), text('done')],
      plugins: [{ plugin: BashToolPlugin, config: { maxOutputBytes: 100, scratchRoot } }],
    })
    try {
      const outcome = await t.agent.send({ content: 'count', source: { kind: 'user' } })
      expect(outcome.reason).toEqual({ kind: 'completed' })
      const result = t.events().find((e): e is SessionEvent<'tool/result'> => e.type === 'tool/result')
      const spillPath = join(scratchRoot, t.agent.session.id, 'bash-call_seq.log')
      expect(result?.data).toMatchObject({
        isError: false,
        meta: { exitCode: 0, timedOut: false, truncated: true, spillPath },
      })
      const full = Array.from({ length: 3000 }, (_, i) => `${i + 1}\n`).join('')
      expect(await readFile(spillPath, 'utf8')).toBe(full)
    } finally {
      await t.dispose()
    }
  })

  it('TL-17 the command runs in the agent cwd and a failing command reaches the model as an error result', async () => {
    const cwd = await tempDir()
    const t = await createTestAgent({
      cwd,
      script: [toolCalls([{ name: 'bash', args: { command: 'pwd -P; exit 5' } }]), text('noted')],
      plugins: [{ plugin: BashToolPlugin }],
    })
    try {
      await t.agent.send({ content: 'where', source: { kind: 'user' } })
      const result = t.events().find((e): e is SessionEvent<'tool/result'> => e.type === 'tool/result')
      expect(result?.data).toMatchObject({
        isError: true,
        error: { code: 'COMMAND_FAILED' },
        meta: { exitCode: 5 },
      })
      expect(result?.data.content[0].text).toBe(`${await realpath(cwd)}\n[exit code 5]`)
    } finally {
      await t.dispose()
    }
  })
})
