// A secret split across two streamed deltas with another event logged between them: a mod's `turn.step`
// hook that forwards the first delta and then throws is skipped, and the host logs `mod/fault` there and
// forwards the rest of the stream (packages/mods/src/stream-dispatch.ts). The fault is not the end of the
// answer's text: joined, the chunk lines of `tack run --json` and of the JSONL export must not show the
// key (apps/tack/src/chunk-redaction.ts, docs/decisions/0395-split-secrets-in-streams.md).
import { startLoopbackServer } from '@tack/llm/testing'
import { expect, test } from 'vitest'
import { jsonLines, runTack, sandbox, writeLoopConfig } from './helpers.ts'
import { writeMod } from './mod-folder.ts'

const CANARY = 'sk-canary-fault-5e0b93a1c7d2'
const ANSWER = `the key is ${CANARY}`

const FAULTY = `export const register = (on) => on('turn.step', async function* ($, e, next) {
  const stream = next(e)
  const first = await stream.next()
  if (!first.done) yield first.value
  throw new Error('fault after the first delta')
})`

interface Line {
  type: string
  seq: number
  data: { chunk?: { type: string; text?: string } }
}

const joinedText = (lines: readonly Line[]) =>
  lines
    .filter((l) => l.type === 'assistant/chunk' && l.data.chunk?.type === 'text-delta')
    .map((l) => l.data.chunk?.text)
    .join('')

test('a mod fault logged between two deltas of the answer does not let a split key through', async () => {
  // the loopback model sends the answer in two halves, and the cut is inside the key
  expect(ANSWER.indexOf(CANARY)).toBeLessThan(Math.ceil(ANSWER.length / 2))
  const server = await startLoopbackServer({ expectApiKey: CANARY, script: [{ kind: 'text', text: ANSWER }] })
  const box = await sandbox({ LOOP_KEY: CANARY })
  try {
    const config = await writeLoopConfig(box.root, server.baseUrl, { apiKeyEnv: 'LOOP_KEY' })
    const mod = await writeMod(box.root, 'faulty', FAULTY)
    const run = await runTack(
      ['run', '--json', '--config', config, '--model', 'loop/m', '--mod', mod, 'say the key'],
      { env: box.env, cwd: box.workspace },
    )
    expect(run.code, run.stderr).toBe(0)
    const lines = jsonLines(run.stdout) as unknown as Line[]
    // the fault really is logged between the two deltas
    const types = lines.map((l) => (l.type === 'assistant/chunk' ? l.data.chunk?.type : l.type))
    expect(types.join(' ')).toContain('text-delta mod/fault text-delta')
    expect(joinedText(lines)).toBe('the key is [redacted]')
    const result = lines.at(-1) as unknown as { sessionId: string }

    const exported = await runTack(['sessions', 'export', result.sessionId], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(exported.code, exported.stderr).toBe(0)
    const exportedLines = jsonLines(exported.stdout) as unknown as Line[]
    expect(joinedText(exportedLines)).toBe('the key is [redacted]')
    // every logged event keeps its line, in the log's order
    const printed = lines.filter((l) => typeof l.seq === 'number').map((l) => l.seq)
    expect(exportedLines.filter((l) => typeof l.seq === 'number').map((l) => l.seq)).toEqual(printed)
  } finally {
    await server.close()
  }
})
