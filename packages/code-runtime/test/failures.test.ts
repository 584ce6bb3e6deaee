// A failed run's message is bounded like console output (maxLogBytes, with a note naming the full
// length), an exhausted heap is `memory` however QuickJS reports it, and the QuickJS build never
// prints to stderr (docs/decisions/0151-code-mode-failure-bounds.md).
import { spawnSync } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { kernel, runCode, textOf } from './support.ts'

const MAX = 2_048
const failureOf = async (code: string, runtime = {}) => {
  const k = await kernel({ runtime: { maxLogBytes: MAX, ...runtime } })
  const result = await runCode(k, code)
  expect(result.isError).toBe(true)
  return { text: textOf(result), kind: (result.meta as { kind: string }).kind }
}

describe('a failed run carries a bounded message', () => {
  test('throw new Error("E".repeat(2e7)): the message is cut at maxLogBytes with the full length', async () => {
    const { text, kind } = await failureOf('throw new Error("E".repeat(2e7))')
    expect(kind).toBe('runtime')
    expect(text.length).toBeLessThan(MAX + 200)
    expect(text).toContain(`... [error message cut at ${MAX} characters of 20000000]`)
    expect(text.startsWith(`run_code failed (runtime): Error: ${'E'.repeat(100)}`)).toBe(true)
  })

  test('a thrown huge string, a huge error name and a thrown object with a huge field are cut too', async () => {
    const cases: Array<[string, string]> = [
      ['throw "S".repeat(1e7)', `[thrown string cut at ${MAX} characters of 10000000]`],
      ['const e = new Error("m"); e.name = "N".repeat(1e7); throw e', `[error name cut at ${MAX} characters`],
      ['throw { field: "F".repeat(1e7) }', `[thrown value cut at ${MAX} characters of 10000012]`],
    ]
    for (const [code, note] of cases) {
      const { text } = await failureOf(code)
      expect(text.length, code).toBeLessThan(2 * MAX + 300)
      expect(text, code).toContain(note)
    }
  })

  test('a program that replaced String.prototype.slice still gets a bounded message', async () => {
    const { text } = await failureOf(
      'String.prototype.slice = function () { return this.toString() + this.toString() }\nthrow new Error("E".repeat(1e6))',
    )
    expect(text.length).toBeLessThan(MAX + 200)
    expect(text).toContain(`[error message cut at ${MAX} characters of 1000000]`)
  })

  test('small throws read as before', async () => {
    expect((await failureOf('throw null')).text).toBe('run_code failed (runtime): the program threw null')
    expect((await failureOf('throw { code: 7 }')).text).toBe(
      'run_code failed (runtime): the program threw {"code":7}',
    )
    expect((await failureOf('throw new TypeError("bad")')).text).toBe(
      'run_code failed (runtime): TypeError: bad',
    )
  })
})

describe('an exhausted heap is memory', () => {
  const bombs = [
    [
      'small objects (QuickJS then throws null)',
      'const a = []\nfor (let i = 0; ; i++) a.push({ i, s: "y" + i })',
    ],
    ['a Map of arrays', 'const m = new Map()\nfor (let i = 0; ; i++) m.set(i, [i])'],
  ]
  for (const [name, code] of bombs) {
    test(`a memory bomb of ${name} fails memory, not "threw null"`, async () => {
      const { text, kind } = await failureOf(code, { memoryBytes: 32 * 1024 * 1024, computeMs: 60_000 })
      expect(kind).toBe('memory')
      expect(text).toBe(
        `run_code failed (memory): the program ran out of memory (limit ${32 * 1024 * 1024} bytes)`,
      )
    })
  }
})

test('the QuickJS build prints nothing: an abort inside the instance (freeing a runtime with live objects) stays off stderr', async () => {
  const pool = fileURLToPath(new URL('../src/isolate-pool.ts', import.meta.url))
  const script = join(tmpdir(), `qjs-abort-${process.pid}.ts`)
  await writeFile(
    script,
    [
      `import { takeIsolate } from ${JSON.stringify(pool)}`,
      'const { qjs } = await takeIsolate(32 * 1024 * 1024)',
      'const runtime = qjs.newRuntime()',
      'const context = runtime.newContext()',
      "context.evalCode('globalThis.kept = { a: [1, 2, 3] }')",
      // The handle above is never freed: QuickJS's teardown asserts, and emscripten aborts.
      'let caught = ""',
      'try { context.dispose(); runtime.dispose() } catch (error) { caught = String(error) }',
      'process.stdout.write(caught)',
    ].join('\n'),
  )
  const child = spawnSync(process.execPath, [script], { encoding: 'utf8' })
  expect(child.stdout).toContain('Aborted(')
  expect(child.stderr).toBe('')
})

describe('reading what a program threw is guest time', () => {
  // The host reads a thrown value's `message`, `name` and JSON by calling into the guest: a getter or
  // toJSON that never returns must be stopped by computeMs, as any other guest code is, not by maxWallMs.
  test.each([
    ['a message getter', 'throw { get message() { for (;;) {} } }'],
    ['a name getter', 'throw { message: "m", get name() { for (;;) {} } }'],
    ['a toJSON', 'throw { toJSON() { for (;;) {} } }'],
    [
      'a slice of a long message',
      'String.prototype.slice = function () { for (;;) {} }\nthrow new Error("E".repeat(1e4))',
    ],
  ])('%s that never returns fails timeout at computeMs', async (_what, code) => {
    const started = performance.now()
    const { text, kind } = await failureOf(code, { computeMs: 300, maxWallMs: 60_000 })
    expect(kind).toBe('timeout')
    expect(text).toBe('run_code failed (timeout): the program computed for longer than computeMs (300 ms)')
    expect(performance.now() - started).toBeLessThan(20_000)
  })
})
