// TL-23 and TL-30 (the sandbox and its budgets) and R5 (programs that try to escape or exhaust):
// every one ends as a structured result within its budget, and the runtime goes on serving runs.
import { describe, expect, test } from 'vitest'
import { kernel, runCode, textOf } from './support.ts'

const FAST = { computeMs: 1_000, maxWallMs: 5_000, memoryBytes: 32 * 1024 * 1024 }

describe('TL-23 run_code', () => {
  test('TL-23 typeof process, require, fetch and setTimeout are all undefined', async () => {
    const k = await kernel()
    const result = await runCode(
      k,
      'return [typeof process, typeof require, typeof fetch, typeof setTimeout, typeof setInterval, typeof queueMicrotask === "function" ? "q" : "undefined"]',
    )
    expect(result.isError).toBe(false)
    expect(JSON.parse(textOf(result))).toEqual(Array(6).fill('undefined'))
  })

  test('TL-23 the result is the console output followed by the JSON of the returned value; types are stripped', async () => {
    const k = await kernel()
    const result = await runCode(
      k,
      'interface P { x: number }\nconst p: P = { x: 2 }\nconsole.log("first", p)\nconsole.error("second")\nreturn { twice: p.x * 2 } as const',
    )
    expect(textOf(result)).toBe('first {"x":2}\nsecond\n{"twice":4}')
  })

  test('TL-23 top-level await and return work; a program returning nothing says so', async () => {
    const k = await kernel()
    expect(textOf(await runCode(k, 'const t = await tools.echo({ text: "hi" })\nreturn t'))).toBe('"hi"')
    expect(textOf(await runCode(k, 'const x = 1'))).toBe('(the program printed nothing and returned nothing)')
  })
})

describe('R5 escapes and exhaustion end as structured errors, and the runtime goes on', () => {
  const attempts: Array<[string, string, RegExp]> = [
    ['import', 'import fs from "node:fs"\nreturn fs', /compile|runtime/],
    ['dynamic import', 'const fs = await import("node:fs")\nreturn Object.keys(fs)', /runtime/],
    ['require', 'return require("child_process")', /runtime/],
    ['process', 'return process.env', /runtime/],
    [
      'globalThis tricks',
      'const g = (0, eval)("this")\nreturn g.constructor.constructor("return process")().env',
      /runtime/,
    ],
    ['Function constructor', 'return Function("return this")().process.exit(1)', /runtime/],
    ['an infinite loop', 'while (true) {}', /timeout/],
    ['a memory bomb', 'const a = []\nwhile (true) a.push(new Array(100000).fill(1))', /memory/],
    ['a 100 MB string', 'const s = "x".repeat(100 * 1024 * 1024)\nconsole.log(s)\nreturn s', /memory/],
    ['a doubling string', 'let s = "x"\nfor (;;) s += s', /memory/],
    ['unbounded recursion', 'const f = (n: number): number => f(n + 1) + 1\nreturn f(0)', /runtime/],
  ]
  for (const [name, code, kind] of attempts) {
    test(`R5 ${name}`, async () => {
      const k = await kernel({ runtime: FAST })
      const started = performance.now()
      const result = await runCode(k, code)
      const took = performance.now() - started
      expect(result.isError).toBe(true)
      expect(result.error).toMatchObject({ name: 'CodeRunFailedError', code: 'CODE_RUN_FAILED' })
      expect((result.meta as { kind: string }).kind).toMatch(kind)
      // Within the budgets: the wall budget bounds every run, with slack for a loaded machine.
      expect(took).toBeLessThan(FAST.maxWallMs + 2_000)
      // The runtime goes on.
      expect(textOf(await runCode(k, 'return 1 + 1'))).toBe('2')
    })
  }

  test('R5 huge console output is cut at maxLogBytes with a note', async () => {
    const k = await kernel({ runtime: { ...FAST, maxLogBytes: 2_048 } })
    const result = await runCode(k, 'for (let i = 0; i < 10000; i++) console.log("line " + i)\nreturn "done"')
    const text = textOf(result)
    expect(result.isError).toBe(false)
    expect(text).toContain('[console output cut at 2048 characters]')
    expect(text.length).toBeLessThan(2_048 * 2 + 100)
    expect(text.endsWith('"done"')).toBe(true)
  })
})

describe('TL-30 budgets', () => {
  test('TL-30 while (true) {} fails timeout soon after computeMs', async () => {
    const k = await kernel({ runtime: { computeMs: 300 } })
    const started = performance.now()
    const result = await runCode(k, 'while (true) {}')
    expect((result.meta as { kind: string }).kind).toBe('timeout')
    expect(textOf(result)).toContain('computeMs (300 ms)')
    expect(performance.now() - started).toBeLessThan(300 + 2_000)
  })

  test('TL-30 a program waiting on a slow tool longer than computeMs but within maxWallMs succeeds', async () => {
    const k = await kernel({ runtime: { computeMs: 100, maxWallMs: 5_000 } })
    const result = await runCode(k, 'return await tools.slow({ ms: 600 })')
    expect(result.isError).toBe(false)
    expect(textOf(result)).toBe('"waited 600 ms"')
  })

  test('TL-30 waiting past maxWallMs fails timeout', async () => {
    const k = await kernel({ runtime: { computeMs: 100, maxWallMs: 300 } })
    const result = await runCode(k, 'return await tools.slow({ ms: 5000 })')
    expect((result.meta as { kind: string }).kind).toBe('timeout')
    expect(textOf(result)).toContain('maxWallMs (300 ms)')
  })

  test('TL-30 unbounded allocation fails memory', async () => {
    const k = await kernel({ runtime: { memoryBytes: 16 * 1024 * 1024 } })
    const result = await runCode(k, 'const a = []\nwhile (true) a.push({ n: a.length, s: "y" + a.length })')
    expect((result.meta as { kind: string }).kind).toBe('memory')
  })

  test('TL-30 enums and namespaces need transformation: a compile failure naming the line', async () => {
    const k = await kernel()
    const result = await runCode(k, 'const a = 1\nenum Color { Red }')
    expect(result.meta).toMatchObject({ kind: 'compile' })
    expect(textOf(result)).toMatch(/enum is not supported.*line 2/)
  })
})
