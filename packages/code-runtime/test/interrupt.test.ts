// An abort reaches a guest that never yields (docs/decisions/0150-code-mode-off-thread.md): the isolate
// runs on a worker thread, so this thread's timers still fire and the abort is seen; the guest stops at
// its next interrupt check, and one stuck inside a single long built-in call is ended by terminating
// its thread after stopGraceMs. The compute budget is 60 s, far above what the assertions allow.
import { Context } from '@tack/kernel'
import type { CodeRuntime } from '@tack/tools'
import { describe, expect, test } from 'vitest'
import { CodeRuntimePlugin } from '../src/index.ts'

async function runtime(stopGraceMs = 1_000) {
  const ctx = new Context()
  await ctx.plugin(CodeRuntimePlugin, { computeMs: 60_000, maxWallMs: 120_000, stopGraceMs })
  return ctx.codeRuntime
}

/**
 * Runs `await tools.ready({})` then `code`, and aborts `ms` after the guest called `ready` (so the
 * program is certainly running, not still starting, when the abort comes).
 */
async function abortedAfter(ms: number, code: string, stopGraceMs?: number) {
  const codeRuntime = await runtime(stopGraceMs)
  const controller = new AbortController()
  let abortedAt = 0
  const ready = async () => {
    setTimeout(() => {
      abortedAt = performance.now()
      controller.abort()
    }, ms)
    return { ok: true as const, text: '' }
  }
  const outcome = await codeRuntime.run({
    code: `await tools.ready({})\n${code}`,
    bindings: { ready },
    signal: controller.signal,
  })
  return { outcome, tookMs: performance.now() - abortedAt, codeRuntime }
}

/** After an aborted run the runtime goes on serving runs (a terminated thread is replaced). */
async function expectServesNextRun(codeRuntime: CodeRuntime) {
  const next = await codeRuntime.run({
    code: 'return 6 * 7',
    bindings: {},
    signal: new AbortController().signal,
  })
  expect(next).toEqual({ ok: true, logs: '', returned: '42' })
}

describe('an abort stops a busy program at once', () => {
  test('while (true) {} aborted after 300 ms ends aborted, says interrupted and keeps its console output', async () => {
    const { outcome, tookMs, codeRuntime } = await abortedAfter(
      300,
      'console.log("spinning")\nwhile (true) {}',
    )
    expect(outcome).toEqual({
      ok: false,
      kind: 'aborted',
      message: 'the program was interrupted: the run was aborted',
      logs: 'spinning',
    })
    expect(tookMs).toBeLessThan(8_000)
    await expectServesNextRun(codeRuntime)
  })

  test('a guest inside one long built-in call (a big sort) is ended by terminating its thread after stopGraceMs', async () => {
    const sorts = 'const a = new Array(2e6).fill(7)\nfor (let i = 0; i < 20; i++) a.sort()\nreturn 1'
    const { outcome, tookMs, codeRuntime } = await abortedAfter(500, sorts, 100)
    expect(outcome).toMatchObject({
      ok: false,
      kind: 'aborted',
      message: /did not stop within stopGraceMs \(100 ms\)/,
    })
    expect(tookMs).toBeLessThan(8_000)
    await expectServesNextRun(codeRuntime)
  })

  test('a run waiting on a tool call is aborted at once too', async () => {
    const codeRuntime = await runtime()
    const controller = new AbortController()
    const outcome = codeRuntime.run({
      code: 'await tools.wait({})',
      bindings: { wait: () => new Promise(() => {}) },
      signal: controller.signal,
    })
    setTimeout(() => controller.abort(), 200)
    expect(await outcome).toMatchObject({ ok: false, kind: 'aborted', message: /interrupted/ })
  })
})

test('an abort while the host reads a thrown value whose getter never returns ends aborted', async () => {
  const { outcome, tookMs } = await abortedAfter(300, 'throw { get message() { for (;;) {} } }')
  expect(outcome).toMatchObject({ ok: false, kind: 'aborted', message: /interrupted/ })
  expect(tookMs).toBeLessThan(8_000)
})
