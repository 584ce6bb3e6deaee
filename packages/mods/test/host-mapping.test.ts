// docs/decisions/0210-host-protocol-packages.md through the mod host (65-mod-host.md requirement 10): a
// plugin's tool (`label`) that the mod host has never heard of reaches a mod's `tool.check` and
// `tool.call` as its declared Claude tool (`Label`, input `{path, text}`); a mod's rewrite comes back in
// the tool's own argument names and runs; the result a mod sees is the tool's declared tool_response.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { text, toolCalls } from '@tack/agent/testing'
import { LabelToolPlugin } from '@tack/tools/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { type ModSession, modSession, tempDir, writeMod } from './helpers.ts'

let session: ModSession | undefined
afterEach(async () => {
  await session?.dispose()
  session = undefined
})

describe('0210 a plugin tool through a mod', () => {
  it('0210 tool.check and tool.call see Label in its Claude shape; a rewrite runs in tack names; the result is its tool_response', async () => {
    const ws = tempDir('tack-mods-ws-')
    const seen = join(ws, 'seen.json')
    const source = `export function register(on) {
      const log = []
      on('tool.check', { tool: 'Label' }, async ($, e, next) => { log.push({ check: e.tool, input: e.input }); return next(e) })
      on('tool.call', { tool: 'Label' }, async ($, e, next) => {
        const r = await next({ ...e, text: 'from the mod' })
        log.push({ call: e.tool, path: e.path, text: e.text, result: r.result })
        await $.fs.write(${JSON.stringify(seen)}, JSON.stringify(log))
        return r
      })
    }`
    const dir = writeMod({ name: 'label-probe', source })
    session = await modSession(
      [{ dir }],
      [
        toolCalls([{ name: 'label', args: { target: 'a.txt', words: 'original' }, id: 'call-1' }]),
        text('done'),
      ],
      { hookBudgetMs: 2000 },
      ws,
      [{ plugin: LabelToolPlugin }],
    )
    await session.agent.send({ content: 'go', source: { kind: 'user' } })
    expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('from the mod')
    // tool.call's next() runs the checks: tool.check sees the rewrite, read back into tack's arguments
    // by the tool's fromInput and shown again in its Claude shape.
    expect(JSON.parse(readFileSync(seen, 'utf8'))).toEqual([
      { check: 'Label', input: { path: join(ws, 'a.txt'), text: 'from the mod' } },
      {
        call: 'Label',
        path: join(ws, 'a.txt'),
        text: 'original',
        result: { labelled: join(ws, 'a.txt'), ok: true },
      },
    ])
  })
})
