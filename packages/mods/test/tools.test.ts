// tool.check and tool.call through the real loop and the real write tool (65-mod-host.md
// requirements 6, 8 and 10): deny prevents the tool, a rewrite changes what runs, an answer runs nothing,
// and the fail-open and fail-closed rules hold.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { text, toolCalls } from '@tack/agent/testing'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type ModSession, modSession, tempDir, writeMod } from './helpers.ts'

let session: ModSession | undefined
afterEach(async () => {
  await session?.dispose()
  session = undefined
})

const writeCall = (path: string, content = 'hello') =>
  toolCalls([{ name: 'write', args: { file_path: path, content }, id: 'call-1' }])

function toolResult(s: ModSession) {
  const result = s.events().find((e) => e.type === 'tool/result')
  return result?.data as { content: { text: string }[]; isError: boolean } | undefined
}

const faults = (s: ModSession) =>
  s
    .events()
    .filter((e) => e.type === 'mod/fault')
    .map((e) => e.data)

// Every path a test writes lies in this workspace: the tools refuse paths outside it.
let ws = tempDir()
beforeEach(() => {
  ws = tempDir('tack-mods-ws-')
})

async function run(source: string, target: string, extraScript = [text('done')]) {
  const dir = writeMod({ name: 'probe', source })
  session = await modSession([{ dir }], [writeCall(target), ...extraScript], { hookBudgetMs: 2000 }, ws)
  await session.agent.send({ content: 'go', source: { kind: 'user' } })
  return session
}

describe('tool.check', () => {
  it('a {decision: "deny"} answer prevents the tool from running (65-mod-host.md requirement 10)', async () => {
    const target = join(ws, 'denied.txt')
    const s = await run(
      `export function register(on) { on('tool.check', { tool: /^(Edit|Write)$/ }, async ($, e, next) => ({ decision: 'deny', reason: 'no writes: ' + e.input.file_path })) }`,
      target,
    )
    expect(existsSync(target)).toBe(false)
    expect(toolResult(s)?.isError).toBe(true)
    expect(toolResult(s)?.content[0].text).toContain('no writes')
  })

  it('a throwing hook without .catch lets the call proceed, logs mod/fault (requirement 8)', async () => {
    const target = join(ws, 'proceeds.txt')
    const s = await run(
      `export function register(on) { on('tool.check', async () => { throw new Error('boom') }) }`,
      target,
    )
    expect(readFileSync(target, 'utf8')).toBe('hello')
    expect(faults(s)).toEqual([{ mod: 'probe', event: 'tool.check', kind: 'throw', message: 'boom' }])
  })

  it('.catch can fail closed: next.called ? next(e) : deny (requirement 8)', async () => {
    const target = join(ws, 'closed.txt')
    const s = await run(
      `export function register(on) {
        on('tool.check', async () => { throw new Error('broken policy') })
          .catch(($, e, next) => next.called ? next(e) : { decision: 'deny', reason: 'fail closed: ' + next.error.kind })
      }`,
      target,
    )
    expect(existsSync(target)).toBe(false)
    expect(toolResult(s)?.content[0].text).toContain('fail closed: throw')
  })

  it('a wrong-shaped answer is skipped and the verdict beneath stands', async () => {
    const target = join(ws, 'shape.txt')
    const s = await run(
      `export function register(on) { on('tool.check', async () => ({ verdict: 'no' })) }`,
      target,
    )
    expect(readFileSync(target, 'utf8')).toBe('hello')
    expect(faults(s)[0]).toMatchObject({ kind: 'shape', event: 'tool.check' })
  })

  it('a hook over its budget is skipped; $.clock.sleep counts against it (requirement 9)', async () => {
    const dir = writeMod({
      name: 'slow',
      source: `export function register(on) { on('tool.check', async ($) => { await $.clock.sleep(400); return { decision: 'deny' } }) }`,
    })
    const target = join(ws, 'slow.txt')
    session = await modSession([{ dir }], [writeCall(target), text('done')], { hookBudgetMs: 100 }, ws)
    await session.agent.send({ content: 'go', source: { kind: 'user' } })
    expect(readFileSync(target, 'utf8')).toBe('hello')
    expect(faults(session)[0]).toMatchObject({ kind: 'timeout', mod: 'slow' })
  })
})

describe('tool.call', () => {
  it('a rewrite of the arguments changes what runs (requirement 10)', async () => {
    const root = ws
    const asked = join(root, 'asked.txt')
    const rewritten = join(root, 'rewritten.txt')
    await run(
      `export function register(on) { on('tool.call', { tool: 'Write' }, async ($, e, next) => next({ ...e, file_path: ${JSON.stringify(rewritten)}, content: 'changed' })) }`,
      asked,
    )
    expect(existsSync(asked)).toBe(false)
    expect(readFileSync(rewritten, 'utf8')).toBe('changed')
  })

  it('answering with {result} runs no tool (requirement 6)', async () => {
    const target = join(ws, 'answered.txt')
    const s = await run(
      `export function register(on) { on('tool.call', async ($, e) => ({ result: { ok: true }, text: 'answered by mod', ref: e.tool_use_id })) }`,
      target,
    )
    expect(existsSync(target)).toBe(false)
    expect(toolResult(s)?.content[0].text).toBe('answered by mod')
    expect(toolResult(s)?.isError).toBe(false)
  })

  it('an observing hook sees the Claude-shaped tool_response; a second next() fails open (tack runs a call once)', async () => {
    const target = join(ws, 'observed.txt')
    const seen = join(ws, 'seen.json')
    const s = await run(
      `export function register(on) { on('tool.call', async ($, e, next) => {
        const r = await next(e)
        await $.fs.write(${JSON.stringify(seen)}, JSON.stringify({ type: r.result.type, filePath: r.result.filePath, ref: r.ref }))
        await next(e)
        return r
      }) }`,
      target,
    )
    expect(readFileSync(target, 'utf8')).toBe('hello')
    expect(JSON.parse(readFileSync(seen, 'utf8'))).toEqual({
      type: 'create',
      filePath: target,
      ref: 'call-1',
    })
    // tools/call lets next() run once (TL-31): the second call throws, the hook is skipped, its first result stands
    expect(faults(s)[0]).toMatchObject({ kind: 'throw', event: 'tool.call' })
    expect(toolResult(s)?.isError).toBe(false)
  })

  it('rewriting tool_use_id fails the hook and the call runs as asked (pinned key)', async () => {
    const target = join(ws, 'pinned.txt')
    const s = await run(
      `export function register(on) { on('tool.call', async ($, e, next) => next({ ...e, tool_use_id: 'forged' })) }`,
      target,
    )
    expect(readFileSync(target, 'utf8')).toBe('hello')
    expect(faults(s)[0]).toMatchObject({ kind: 'pinned', event: 'tool.call' })
  })

  it('a hook that throws after next leaves the result standing; the replay-safe .catch does not re-run the tool', async () => {
    const root = ws
    const target = join(root, 'after.txt')
    const log = join(root, 'log.txt')
    const s = await run(
      `let runs = 0
      export function register(on) {
        on('tool.call', async ($, e, next) => { runs++; await next(e); throw new Error('after next') })
          .catch(async ($, e, next) => { const r = await next(e); await $.fs.write(${JSON.stringify(log)}, JSON.stringify({ called: next.called, runs, text: r.text })); return r })
      }`,
      target,
    )
    expect(readFileSync(target, 'utf8')).toBe('hello')
    const seen = JSON.parse(readFileSync(log, 'utf8'))
    expect(seen.called).toBe(true)
    expect(seen.runs).toBe(1)
    expect(toolResult(s)?.isError).toBe(false)
  })

  it('awaiting next() around a slow tool does not count against the budget (requirement 9)', async () => {
    const dir = writeMod({
      name: 'patient',
      source: `export function register(on) { on('tool.call', async ($, e, next) => next(e)) }`,
    })
    session = await modSession(
      [{ dir }],
      [toolCalls([{ name: 'bash', args: { command: 'sleep 0.3; echo slept' }, id: 'b1' }]), text('done')],
      { hookBudgetMs: 100 },
    )
    await session.agent.send({ content: 'go', source: { kind: 'user' } })
    expect(toolResult(session)?.content[0].text).toContain('slept')
    expect(faults(session)).toEqual([])
  })
})

describe('an abandoned hook', () => {
  it('cannot run the tool after its budget expired: its late next() throws (requirement 9)', async () => {
    const target = join(ws, 'late.txt')
    const dir = writeMod({
      name: 'late',
      source: `export function register(on) {
        on('tool.call', async ($, e, next) => {
          await $.clock.sleep(150)
          return next({ ...e, content: 'late run' })
        })
      }`,
    })
    session = await modSession([{ dir }], [writeCall(target), text('done')], { hookBudgetMs: 50 }, ws)
    await session.agent.send({ content: 'go', source: { kind: 'user' } })
    await new Promise((r) => setTimeout(r, 250))
    // the skip ran the call as asked; the late next() never ran it again with its rewrite
    expect(readFileSync(target, 'utf8')).toBe('hello')
    expect(faults(session)[0]).toMatchObject({ kind: 'timeout', mod: 'late' })
  })
})
