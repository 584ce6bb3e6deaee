// A key cut into as many deltas as it has characters (the loopback model cuts in halves; a mod's
// `turn.step` hook re-cuts each delta into single characters), holding `"` and `\` that JSON escapes, in
// the model's reasoning, a call's arguments and its answer: joined, no stream of `tack run --json` or of
// the JSONL export shows it, raw or escaped, and no line does (apps/tack/src/chunk-redaction.ts,
// docs/decisions/0395-split-secrets-in-streams.md).
import { startLoopbackServer } from '@tack/llm/testing'
import { expect, test } from 'vitest'
import { jsonLines, runTack, sandbox, writeLoopConfig } from './helpers.ts'
import { writeMod } from './mod-folder.ts'

const CANARY = 'sk-canary-chars-"q\\b-5e0b93a1c7d2'
const ESCAPED = JSON.stringify(CANARY).slice(1, -1)

const ONE_CHAR_DELTAS = `export const register = (on) => on('turn.step', async function* ($, e, next) {
  const stream = next(e)
  for await (const c of stream) {
    if (c.type === 'text') for (const ch of c.text) yield { type: 'text', text: ch }
    else if (c.type === 'thinking') for (const ch of c.thinking) yield { type: 'thinking', thinking: ch }
    else if (c.type === 'input') for (const ch of c.partial) yield { ...c, partial: ch }
    else yield c
  }
  return await stream.result
})`

interface ChunkLine {
  type: string
  data: { step: number; chunk: { type: string; text?: string; callId?: string; argumentsDelta?: string } }
}

/** Each stream's deltas joined, by step, kind and call. */
function joined(lines: readonly ChunkLine[]): Map<string, { pieces: number; text: string }> {
  const streams = new Map<string, { pieces: number; text: string }>()
  for (const { type, data } of lines) {
    if (type !== 'assistant/chunk') continue
    const { chunk } = data
    const piece = chunk.text ?? chunk.argumentsDelta
    if (piece === undefined) continue
    const key = `${data.step}/${chunk.type}/${chunk.callId ?? ''}`
    const stream = streams.get(key) ?? { pieces: 0, text: '' }
    streams.set(key, { pieces: stream.pieces + 1, text: stream.text + piece })
  }
  return streams
}

test('a key streamed one character a delta, in reasoning, arguments and answer, is redacted where joined', async () => {
  const server = await startLoopbackServer({
    script: [
      {
        kind: 'tool-calls',
        reasoning: `I read ${CANARY} here`,
        calls: [{ name: 'bash', args: { command: `echo '${CANARY}' | wc -c` } }],
      },
      { kind: 'text', text: `the key is ${CANARY} ok` },
    ],
  })
  const box = await sandbox({ MY_TOKEN: CANARY })
  try {
    const config = await writeLoopConfig(box.root, server.baseUrl)
    const mod = await writeMod(box.root, 'one-char-deltas', ONE_CHAR_DELTAS)
    const run = await runTack(
      ['run', '--json', '--config', config, '--model', 'loop/m', '--mod', mod, 'say the key'],
      { env: box.env, cwd: box.workspace },
    )
    expect(run.code, run.stderr).toBe(0)
    const lines = jsonLines(run.stdout) as unknown as ChunkLine[]
    const streams = joined(lines)
    expect([...streams.values()].map((s) => s.text)).toEqual([
      'I read [redacted] here',
      JSON.stringify({ command: "echo '[redacted]' | wc -c" }),
      'the key is [redacted] ok',
    ])
    // really cut into characters
    for (const { pieces } of streams.values()) expect(pieces).toBeGreaterThan(20)
    expect(run.stdout).not.toContain(CANARY)
    expect(run.stdout).not.toContain(ESCAPED)

    const { sessionId } = lines.at(-1) as unknown as { sessionId: string }
    const exported = await runTack(['sessions', 'export', sessionId], { env: box.env, cwd: box.workspace })
    expect(exported.code, exported.stderr).toBe(0)
    expect(joined(jsonLines(exported.stdout) as unknown as ChunkLine[])).toEqual(streams)
    expect(exported.stdout).not.toContain(CANARY)
  } finally {
    await server.close()
  }
})
