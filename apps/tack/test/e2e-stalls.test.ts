// A model server that goes silent, through the real `tack run` binary (docs/decisions/0160-stalled-model-streams.md):
// a stall is retried under the retry policy, and when the attempts run out the run ends with a
// non-zero exit and one stderr line that names the bound and the config key to raise.
import { join } from 'node:path'
import { type LoopbackEntry, startLoopbackServer } from '@tack/llm/testing'
import { describe, expect, test } from 'vitest'
import { runTack, sandbox, type TackResult, writeJson } from './helpers.ts'

const BOUNDS = { firstByteTimeoutMs: 300, idleTimeoutMs: 300 }

/** `tack run` against a loopback server playing `script`, with stall bounds of 300 ms and fast retries. */
async function runStalled(
  script: LoopbackEntry[],
  bounds: Record<string, number> = BOUNDS,
): Promise<TackResult & { requests: number }> {
  const server = await startLoopbackServer({ script })
  try {
    const box = await sandbox()
    // JSON is YAML, so the config file can be written as JSON.
    const config = await writeJson(join(box.root, 'stall.yml'), {
      plugins: {
        llm: {
          ...bounds,
          retry: { baseDelayMs: 1, maxDelayMs: 5 },
          endpoints: { loop: { kind: 'openai-compatible', baseUrl: server.baseUrl } },
        },
      },
    })
    const result = await runTack(['run', '--config', config, '--model', 'loop/m', 'say something'], {
      env: box.env,
      cwd: box.workspace,
    })
    return { ...result, requests: server.requests.length }
  } finally {
    await server.close()
  }
}

describe('tack run and a model server that stalls', () => {
  test('no headers: the request is retried and the run answers with the next attempt', async () => {
    const run = await runStalled([
      { kind: 'stall', after: 'accept' },
      { kind: 'text', text: 'answered on the second try' },
    ])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('answered on the second try')
    expect(run.stderr).toContain('plugins.llm.firstByteTimeoutMs')
    expect(run.requests).toBe(2)
  }, 20000)

  test('no headers on every attempt: after retry.maxStallAttempts a clear error on stderr and a non-zero exit', async () => {
    const run = await runStalled([
      { kind: 'stall', after: 'accept' },
      { kind: 'stall', after: 'accept' },
      { kind: 'stall', after: 'accept' },
    ])
    expect(run.code).not.toBe(0)
    expect(run.stderr).toMatch(
      /the turn ended with an error \(TIMEOUT\): loop: no response within 300 ms of sending the request \(plugins\.llm\.firstByteTimeoutMs\)/,
    )
    expect(run.requests).toBe(2)
  }, 20000)

  test('silence after part of the answer: not retried (it is in the log); the run fails naming plugins.llm.idleTimeoutMs', async () => {
    const run = await runStalled([
      { kind: 'stall', after: 'chunks', text: 'Half an ans' },
      { kind: 'text', text: 'never requested' },
    ])
    expect(run.code).not.toBe(0)
    expect(run.stderr).toMatch(
      /\(TIMEOUT\): loop: the response stream was silent for 300 ms \(plugins\.llm\.idleTimeoutMs\)/,
    )
    expect(run.requests).toBe(1)
  }, 20000)

  test('a model that thinks for 5× the idle bound while its server sends keep-alives is not a stall', async () => {
    const run = await runStalled(
      [{ kind: 'text', text: 'thought it through', thinkMs: 1500, keepAliveMs: 100 }],
      { idleTimeoutMs: 300 },
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('thought it through')
    expect(run.requests).toBe(1)
  }, 20000)
})
