// AL-21: the `scripted` provider plays entries from a JSON file, keeps its position in a cursor file
// so restarted processes continue where the last left off, and records every request.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeEach, describe, expect, test } from 'vitest'
import { createTestAgent } from '@tack/agent/testing'
import { registerTool } from '@tack/tools'
import { echoTool } from '@tack/tools/testing'
import {
  createLlmPlugin,
  createScriptedFileAdapter,
  cursorPath,
  readCursor,
  requestsPath,
} from '../src/index.ts'
import { drain, drainToError, request, signal } from './helpers.ts'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tack-scripted-'))
})

function script(entries: unknown, name = 'script.json'): string {
  const file = join(dir, name)
  writeFileSync(file, JSON.stringify(entries))
  return file
}

describe('scripted provider', () => {
  test('AL-21 plays entries in order with their finish reasons; the cursor and request log follow', async () => {
    script([
      { kind: 'text', text: 'cut short', finishReason: 'length' },
      { kind: 'tool-calls', calls: [{ name: 'echo', args: { text: 'a' } }] },
      { kind: 'text', text: 'filtered', finishReason: 'content-filter' },
    ])
    const adapter = createScriptedFileAdapter({ cwd: dir })
    const model = 'scripted/script.json'
    const first = await drain(await adapter.stream(request(model), signal()))
    expect(first.final).toEqual({ content: [{ type: 'text', text: 'cut short' }], finishReason: 'length' })
    expect(readCursor(join(dir, 'script.json'))).toEqual({ next: 1, calls: 0 })
    const second = await drain(await adapter.stream(request(model), signal()))
    expect(second.final).toEqual({
      content: [{ type: 'tool-call', callId: 'call_1', name: 'echo', arguments: '{"text":"a"}' }],
      finishReason: 'tool-calls',
    })
    expect(second.chunks.at(-1)).toEqual({ type: 'finish', reason: 'tool-calls' })
    const third = await drain(await adapter.stream(request(model), signal()))
    expect(third.final.finishReason).toBe('content-filter')
    expect(readCursor(join(dir, 'script.json'))).toEqual({ next: 3, calls: 1 })
    const logged = readFileSync(requestsPath(join(dir, 'script.json')), 'utf8')
      .trim()
      .split('\n')
    expect(logged.map((line) => JSON.parse(line).config.model)).toEqual([model, model, model])
    await expect(adapter.stream(request(model), signal())).rejects.toMatchObject({ code: 'SCRIPT_EXHAUSTED' })
  })

  test('AL-21 an absolute path works, and error entries fail as scripted (before or after chunks)', async () => {
    const file = script([
      { kind: 'error', message: 'rate limited', status: 429, transient: true },
      { kind: 'error', message: 'stream broke', afterChunks: 1, text: 'Hal' },
    ])
    const adapter = createScriptedFileAdapter({ cwd: '/' })
    await expect(adapter.stream(request(`scripted/${file}`), signal())).rejects.toMatchObject({
      message: 'rate limited',
      status: 429,
      transient: true,
    })
    const { chunks, error } = await drainToError(await adapter.stream(request(`scripted/${file}`), signal()))
    expect(chunks).toEqual([{ type: 'text-delta', text: 'Hal' }])
    expect((error as Error).message).toBe('stream broke')
  })

  test('AL-21 a hang entry pends until aborted', async () => {
    script([{ kind: 'hang' }])
    const controller = new AbortController()
    const response = await createScriptedFileAdapter({ cwd: dir }).stream(
      request('scripted/script.json'),
      controller.signal,
    )
    const pending = drainToError(response)
    controller.abort()
    expect((await pending).error).toMatchObject({ code: 'ABORTED' })
  })

  test.each([
    ['not json', 'not JSON'],
    [JSON.stringify({ nothing: [] }), 'expected an array'],
    [JSON.stringify([{ kind: 'respond' }]), 'kind "respond"'],
    [JSON.stringify([{ kind: 'text', text: 'x', finishReason: 'done' }]), 'finishReason'],
    [JSON.stringify([{ kind: 'tool-calls', calls: [{ args: {} }] }]), 'calls[0].name'],
  ])('AL-21 an invalid script file (%s) fails with SCRIPT_INVALID', async (content, message) => {
    writeFileSync(join(dir, 'bad.json'), content)
    const error = await Promise.resolve(
      createScriptedFileAdapter({ cwd: dir }).stream(request('scripted/bad.json'), signal()),
    ).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toMatchObject({ code: 'SCRIPT_INVALID' })
    expect((error as Error).message).toContain(message)
  })

  test('AL-21 a missing script file fails with SCRIPT_INVALID', async () => {
    await expect(
      createScriptedFileAdapter({ cwd: dir }).stream(request('scripted/missing.json'), signal()),
    ).rejects.toMatchObject({ code: 'SCRIPT_INVALID' })
  })

  test('AL-21 across processes: each restarted process takes the next entry and call ids never repeat', () => {
    const file = script({
      entries: [
        { kind: 'tool-calls', calls: [{ name: 'echo', args: { text: 'one' } }] },
        { kind: 'tool-calls', calls: [{ name: 'echo', args: { text: 'two' } }] },
        { kind: 'text', text: 'done', finishReason: 'stop' },
      ],
    })
    const fixture = join(import.meta.dirname, 'fixtures', 'scripted-once.ts')
    const run = () => {
      const child = spawnSync(process.execPath, [fixture, 'script.json'], { cwd: dir, encoding: 'utf8' })
      expect(child.stderr).toBe('')
      return JSON.parse(child.stdout) as { final?: { content: unknown[] }; code?: string }
    }
    expect(run().final?.content).toEqual([
      { type: 'tool-call', callId: 'call_1', name: 'echo', arguments: '{"text":"one"}' },
    ])
    expect(run().final?.content).toEqual([
      { type: 'tool-call', callId: 'call_2', name: 'echo', arguments: '{"text":"two"}' },
    ])
    expect(run().final?.content).toEqual([{ type: 'text', text: 'done' }])
    expect(run().code).toBe('SCRIPT_EXHAUSTED')
    expect(JSON.parse(readFileSync(cursorPath(file), 'utf8'))).toEqual({ next: 3, calls: 2 })
    // The cursor is written via a temporary file and a rename: none is left behind.
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([])
  }, 30_000)

  test('AL-21 a real agent turn on --model scripted/<file>: tool step, unknown tool, answer', async () => {
    const file = script([
      {
        kind: 'tool-calls',
        calls: [
          { name: 'echo', args: { text: 'hi' } },
          { name: 'nope', args: {} },
        ],
      },
      { kind: 'text', text: 'all done', usage: { inputTokens: 9, outputTokens: 2 } },
    ])
    const t = await createTestAgent({
      plugins: [{ plugin: createLlmPlugin({ cwd: dir }), config: {} }],
      setup: (ctx) => {
        registerTool(ctx, echoTool)
      },
      agentOptions: { config: { model: `scripted/${file}` } },
    })
    const outcome = await t.agent.send({ content: 'go', source: { kind: 'user' } })
    expect(outcome.reason).toEqual({ kind: 'completed' })
    const results = t.events().filter((e) => e.type === 'tool/result')
    expect(results.map((e) => (e.data as { isError: boolean }).isError)).toEqual([false, true])
    const last = t
      .events()
      .filter((e) => e.type === 'assistant/message')
      .at(-1)
    expect(last?.data).toMatchObject({
      content: [{ type: 'text', text: 'all done' }],
      usage: { inputTokens: 9, outputTokens: 2 },
    })
    await t.dispose()
  })
})
