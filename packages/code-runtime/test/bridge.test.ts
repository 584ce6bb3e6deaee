// TL-24 to TL-29: the dispatch bridge between a run_code program and the tools pipeline.
import { createHash } from 'node:crypto'
import { createGatedTool } from '@tack/tools/testing'
import { describe, expect, test } from 'vitest'
import { dispatches, kernel, runCode, textOf } from './support.ts'

describe('TL-24 argument normalisation', () => {
  test('TL-24 a BigInt call rejects INVALID_ARGS, the program catches it and a later call succeeds', async () => {
    const k = await kernel()
    const result = await runCode(
      k,
      `try { await tools.echo({ text: 1n as any }) } catch (e: any) { console.log(e.name, e.code) }
       const cyclic: any = {}; cyclic.self = cyclic
       try { await tools.echo(cyclic) } catch (e: any) { console.log(e.name, e.code) }
       return await tools.echo({ text: "after" })`,
    )
    expect(textOf(result)).toBe('ToolCallError INVALID_ARGS\nToolCallError INVALID_ARGS\n"after"')
    // Only the call that could be serialised was dispatched.
    expect(dispatches(k).map((d) => d.arguments)).toEqual([{ text: 'after' }])
  })

  test('TL-24 a missing argument becomes {}; the dispatched value equals the logged one', async () => {
    const k = await kernel()
    const result = await runCode(
      k,
      'return await tools.slow({ ms: 1 }) + " / " + (await tools.fail().catch((e) => e.code))',
    )
    expect(textOf(result)).toBe('"waited 1 ms / TOOL_FAILED"')
    expect(dispatches(k).map((d) => [d.name, d.arguments])).toEqual([
      ['slow', { ms: 1 }],
      ['fail', {}],
    ])
  })
})

describe('TL-25 serial queue', () => {
  test('TL-25 two slow calls under Promise.all never overlap and start in issue order; a failed call does not stall it', async () => {
    const spans: Array<{ call: string; start: number; end: number }> = []
    const k = await kernel({
      // The tools/execute seam wraps each body, so it sees when each sub-call's body ran.
      setup: (ctx) =>
        ctx.on('tools/execute', async (exec, next) => {
          const start = performance.now()
          try {
            return await next()
          } finally {
            if (exec.name !== 'run_code')
              spans.push({ call: `${exec.name} ${exec.rawArguments}`, start, end: performance.now() })
          }
        }),
    })
    const result = await runCode(
      k,
      `const r = await Promise.allSettled([tools.slow({ ms: 150 }), tools.fail({}), tools.slow({ ms: 50 })])
       return r.map((x) => x.status)`,
    )
    expect(JSON.parse(textOf(result))).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect(spans.map((s) => s.call)).toEqual(['slow {"ms":150}', 'fail {}', 'slow {"ms":50}'])
    for (let i = 1; i < spans.length; i++) expect(spans[i].start).toBeGreaterThanOrEqual(spans[i - 1].end)
  })
})

describe('TL-26 the same pipeline', () => {
  test('TL-26 a policy denying a tool is caught in the program as DENIED; sub-call ids are <parent>:code:<n>', async () => {
    const seen: string[] = []
    const k = await kernel({
      setup: (ctx) => {
        ctx.on('tools/pre-execute', (exec) => {
          seen.push(exec.callId)
          return exec.name === 'fail' ? { action: 'deny', reason: 'no failing here' } : { action: 'allow' }
        })
      },
    })
    const result = await runCode(
      k,
      `const out = []
       try { await tools.fail({}) } catch (e: any) { out.push(e.name + " " + e.code + " " + e.message) }
       out.push(await tools.echo({ text: "still fine" }))
       return out`,
      { callId: 'parent' },
    )
    expect(JSON.parse(textOf(result))).toEqual(['ToolCallError DENIED no failing here', 'still fine'])
    expect(seen).toEqual(['parent', 'parent:code:1', 'parent:code:2'])
    expect(dispatches(k)[0]).toMatchObject({ subCallId: 'parent:code:1', isError: true, errorCode: 'DENIED' })
  })

  test("TL-26 a sub-call's post-execute additionalContext appends nothing; the run_code call's own does", async () => {
    const k = await kernel({
      setup: (ctx) => {
        ctx.on('tools/post-execute', (exec) => ({
          action: 'accept',
          additionalContext: [{ content: `ctx for ${exec.name}`, source: { kind: 'plugin', name: 'test' } }],
        }))
      },
    })
    const result = await runCode(k, 'return await tools.echo({ text: "x" })')
    expect(result.additionalContext?.map((c) => c.content)).toEqual(['ctx for run_code'])
  })
})

describe('TL-27 tool/code-dispatch', () => {
  test('TL-27 one event per sub-call, all between the parent tool/call and the run_code result, summaries capped', async () => {
    const k = await kernel({ tools: { dispatchSummaryMaxChars: 10 } })
    await runCode(k, 'for (let i = 0; i < 3; i++) await tools.echo({ text: "result number " + i })', {
      callId: 'p1',
    })
    const types = k.session.events().map((e) => e.type)
    expect(types).toEqual(['tool/call', 'tool/code-dispatch', 'tool/code-dispatch', 'tool/code-dispatch'])
    expect(dispatches(k)).toEqual(
      [0, 1, 2].map((i) => ({
        parentCallId: 'p1',
        subCallId: `p1:code:${i + 1}`,
        name: 'echo',
        arguments: { text: `result number ${i}` },
        isError: false,
        resultSummary: `result num… [${`result number ${i}`.length - 10} more characters]`,
      })),
    )
  })
})

describe('TL-28 run-scoped abort', () => {
  test('TL-28 a program that starts a slow call and returns: the tool sees the abort, its event precedes the result, nothing is dispatched after', async () => {
    const gated = createGatedTool()
    const k = await kernel({ setup: (ctx) => ctx.tools.register(gated.tool) })
    const result = await runCode(k, 'tools.gated(); tools.echo({ text: "queued" }); return "left early"')
    expect(textOf(result)).toBe('"left early"')
    const signal = await gated.started
    expect(signal.aborted).toBe(true)
    // The in-flight call settled (aborted) and was logged before run_code returned; the queued one never ran.
    expect(dispatches(k).map((d) => [d.name, d.errorCode])).toEqual([['gated', 'ABORTED']])
    await new Promise((r) => setTimeout(r, 50))
    expect(dispatches(k)).toHaveLength(1)
  })

  test('TL-28 the outer signal aborts the run: kind aborted, the in-flight sub-call aborted', async () => {
    const gated = createGatedTool()
    const k = await kernel({ setup: (ctx) => ctx.tools.register(gated.tool) })
    const outer = new AbortController()
    const pending = runCode(k, 'await tools.gated(); return "never"', { signal: outer.signal })
    await gated.started
    outer.abort()
    const result = await pending
    expect(result.error?.code).toBe('CODE_RUN_FAILED')
    expect(result.meta).toMatchObject({ kind: 'aborted' })
    expect(dispatches(k).map((d) => d.errorCode)).toEqual(['ABORTED'])
  })
})

describe('TL-29 failed runs', () => {
  const programs: Array<[string, string]> = [
    ['compile', 'const = 1'],
    ['runtime', 'console.log("before"); throw new TypeError("bad thing")'],
    ['timeout', 'console.log("spinning"); while (true) {}'],
    ['memory', 'const a: string[] = []; while (true) a.push("m".repeat(1 << 20) + a.length)'],
  ]
  for (const [kind, code] of programs) {
    test(`TL-29 a ${kind} failure is CodeRunFailedError with kind, message and captured logs`, async () => {
      const k = await kernel({ runtime: { computeMs: 500, memoryBytes: 16 * 1024 * 1024 } })
      const result = await runCode(k, code)
      expect(result.isError).toBe(true)
      expect(result.error).toMatchObject({ name: 'CodeRunFailedError', code: 'CODE_RUN_FAILED' })
      const meta = result.meta as { kind: string; logs: string }
      expect(meta.kind).toBe(kind)
      expect(textOf(result)).toContain(`run_code failed (${kind}): `)
      if (meta.logs) expect(textOf(result)).toContain(`Console output before the failure:\n${meta.logs}`)
    })
  }

  test('TL-29 captured logs survive a runtime failure', async () => {
    const k = await kernel()
    const result = await runCode(k, 'console.log("before"); throw new TypeError("bad thing")')
    expect(result.meta).toEqual({ kind: 'runtime', logs: 'before' })
    expect(textOf(result)).toBe(
      'run_code failed (runtime): TypeError: bad thing\n\nConsole output before the failure:\nbefore',
    )
  })

  test('TL-29 an aborted run is kind aborted', async () => {
    const k = await kernel()
    const outer = new AbortController()
    outer.abort()
    const result = await runCode(k, 'return 1', { signal: outer.signal })
    expect(result.isError).toBe(true)
  })
})

describe('tool/code-dispatch: a large argument is logged by size and SHA-256', () => {
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

  test('past dispatchArgumentsMaxChars the longest strings become size-and-hash markers; the tool still gets them whole', async () => {
    const k = await kernel({ tools: { dispatchArgumentsMaxChars: 1_000 } })
    const result = await runCode(
      k,
      'const t = await tools.echo({ text: "x".repeat(100000) })\nreturn t.length',
    )
    expect(textOf(result)).toBe('100000')
    const big = 'x'.repeat(100_000)
    const json = JSON.stringify({ text: big })
    const [event] = dispatches(k)
    expect(event.arguments).toEqual({ text: `[string of 100000 bytes omitted, sha256 ${sha256(big)}]` })
    expect(event.argumentsOmitted).toEqual({ bytes: json.length, sha256: sha256(json) })
  })

  test('an argument that cannot be made to fit by dropping strings is logged as one marker', async () => {
    const k = await kernel({ tools: { dispatchArgumentsMaxChars: 1_000 } })
    await runCode(k, 'await tools.echo({ text: "t", n: Array.from({ length: 5000 }, (_, i) => i) })')
    const [event] = dispatches(k)
    expect(event.arguments).toMatch(/^\[argument of \d+ bytes omitted, sha256 [0-9a-f]{64}\]$/)
    expect(event.argumentsOmitted?.bytes).toBeGreaterThan(1_000)
  })

  test('an argument nested deeper than the log stores (within the cap or past it) is logged as one marker', async () => {
    for (const depth of [600, 3000]) {
      const k = await kernel({ tools: { dispatchArgumentsMaxChars: 4_000 } })
      const result = await runCode(
        k,
        // echo refuses the extra key: the call is still dispatched and logged, and the program goes on
        `let n = []\nfor (let i = 0; i < ${depth}; i++) n = [n]\ntry { await tools.echo({ text: "deep", n }) } catch {}\nreturn "deep"`,
      )
      expect(textOf(result), `depth ${depth}`).toBe('"deep"')
      const [event] = dispatches(k)
      expect(event.arguments, `depth ${depth}`).toMatch(
        /^\[argument of \d+ bytes omitted, sha256 [0-9a-f]{64}\]$/,
      )
      expect(event.argumentsOmitted?.bytes, `depth ${depth}`).toBeGreaterThan(2 * depth)
    }
  })

  test('an argument within the cap is logged as dispatched, with no argumentsOmitted', async () => {
    const k = await kernel({ tools: { dispatchArgumentsMaxChars: 1_000 } })
    await runCode(k, 'await tools.echo({ text: "y".repeat(900) })')
    const [event] = dispatches(k)
    expect(event.arguments).toEqual({ text: 'y'.repeat(900) })
    expect(event).not.toHaveProperty('argumentsOmitted')
  })
})
