// Security 1 (90-quality) for streamed deltas: the loopback model sends every text and every call's
// arguments in two halves, and here both cut through the endpoint's key. `tack run --json`'s chunk lines
// and `tack sessions export`'s JSONL still never show it: joined, each stream's deltas read `[redacted]`
// where the key was, and every logged chunk keeps its line (apps/tack/src/chunk-redaction.ts,
// docs/decisions/0395-split-secrets-in-streams.md).
import { startLoopbackServer } from '@tack/llm/testing'
import { expect, test } from 'vitest'
import { jsonLines, runTack, sandbox, writeLoopConfig } from './helpers.ts'

const CANARY = 'sk-canary-split-9d41c7e2a05b'
const ANSWER = `the key is ${CANARY}`
const COMMAND = `echo ${CANARY} | wc -c`

interface ChunkLine {
  type: string
  seq: number
  data: { step: number; chunk: { type: string; text?: string; callId?: string; argumentsDelta?: string } }
}

/** Each stream's deltas joined: `step/text-delta` or `step/call`. */
function joinedStreams(lines: readonly ChunkLine[]): Map<string, string> {
  const streams = new Map<string, string>()
  for (const { data } of lines) {
    const { chunk } = data
    const key = chunk.type === 'tool-call-delta' ? `${data.step}/call` : `${data.step}/${chunk.type}`
    const piece = chunk.text ?? chunk.argumentsDelta
    if (piece !== undefined) streams.set(key, (streams.get(key) ?? '') + piece)
  }
  return streams
}

test('a key the model streams in two halves is redacted from --json chunk lines and the JSONL export', async () => {
  // the halves the loopback server cuts really do split the key (packages/llm/src/testing/loopback-script.ts)
  const args = JSON.stringify({ command: COMMAND })
  for (const whole of [ANSWER, args]) {
    const cut = Math.ceil(whole.length / 2)
    expect(whole.indexOf(CANARY)).toBeLessThan(cut)
    expect(whole.indexOf(CANARY) + CANARY.length).toBeGreaterThan(cut)
  }
  const server = await startLoopbackServer({
    expectApiKey: CANARY,
    script: [
      { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: COMMAND } }] },
      { kind: 'text', text: ANSWER },
    ],
  })
  const box = await sandbox({ LOOP_KEY: CANARY })
  try {
    const config = await writeLoopConfig(box.root, server.baseUrl, { apiKeyEnv: 'LOOP_KEY' })
    const run = await runTack(['run', '--json', '--config', config, '--model', 'loop/m', 'say the key'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).not.toContain(CANARY)
    const lines = jsonLines(run.stdout) as unknown as ChunkLine[]
    const result = lines.at(-1) as unknown as { sessionId: string; answer: string }
    expect(result.answer).toBe('the key is [redacted]')
    const printed = lines.filter((l) => l.type === 'assistant/chunk')
    const streams = joinedStreams(printed)
    expect(streams.get('1/call')).toBe(JSON.stringify({ command: 'echo [redacted] | wc -c' }))
    expect(streams.get('2/text-delta')).toBe('the key is [redacted]')

    const exported = await runTack(['sessions', 'export', result.sessionId], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(exported.code, exported.stderr).toBe(0)
    expect(exported.stdout).not.toContain(CANARY)
    const exportedChunks = (jsonLines(exported.stdout) as unknown as ChunkLine[]).filter(
      (l) => l.type === 'assistant/chunk',
    )
    // every logged chunk has its line in both, in the same order
    expect(exportedChunks.map((l) => l.seq)).toEqual(printed.map((l) => l.seq))
    expect(joinedStreams(exportedChunks)).toEqual(streams)
  } finally {
    await server.close()
  }
})
