// tack as a library, the options beyond a plain session (docs/library.md): `maxCostUsd` stops a turn
// against a priced model on the loopback server and the log says why; `mcpServers` and `configFiles`
// reach the session as a config file's would; and the runtime exports are the declared ones (api.ts).
import { readFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { startLoopbackServer } from '@tack/llm/testing'
import { describe, expect, test } from 'vitest'
import type { SessionEventMap } from '@tack/session'
import * as library from '../src/library/index.ts'
import { isEvent, openSession } from '../src/library/index.ts'
import { sandbox, scriptedModel, writeLoopConfig } from './helpers.ts'
import { everythingServer } from './mcp-everything.ts'

const readCall = (usage: { inputTokens: number; outputTokens: number }) => ({
  kind: 'tool-calls' as const,
  calls: [{ name: 'read', args: { file_path: 'a.txt' } }],
  usage,
})

describe('library options', () => {
  test('maxCostUsd: the step that passes the limit ends the turn (exit reason max-cost), logged as session/limit', async () => {
    const box = await sandbox()
    await writeFile(join(box.workspace, 'a.txt'), 'a\n')
    // gpt-4o's catalogue price: $10 per million output tokens, so each step below costs $2.50 (output
    // rather than input tokens: a big input would make the session compact)
    const server = await startLoopbackServer({
      script: [
        readCall({ inputTokens: 0, outputTokens: 250_000 }),
        readCall({ inputTokens: 0, outputTokens: 250_000 }),
        { kind: 'text', text: 'never reached' },
      ],
    })
    try {
      const config = await writeLoopConfig(box.root, server.baseUrl)
      const warnings: string[] = []
      const session = await openSession({
        cwd: box.workspace,
        model: 'loop/gpt-4o',
        configFiles: [config],
        env: box.env,
        tackHome: box.tackHome,
        maxCostUsd: 4,
        onWarning: (line) => warnings.push(line),
      })
      const result = await session.prompt('read a.txt twice').result
      expect(result).toMatchObject({
        exitReason: 'max-cost',
        reason: { kind: 'aborted' },
        error: { code: 'MAX_COST' },
        costUsd: 5,
      })
      expect(server.requests).toHaveLength(2)
      const events = session.events()
      const limit = events.find((e) => isEvent(e, 'session/limit'))
      expect(limit?.data).toEqual({ kind: 'max-cost', limitUsd: 4, spentUsd: 5 })
      // the second step's call never ran: one read result only, and the turn's end follows the limit
      expect(
        events.filter((e) => e.type === 'tool/result' && !(e.data as { isError: boolean }).isError),
      ).toHaveLength(1)
      const end = events.findLast((e) => e.type === 'turn/end')
      expect(end && limit && end.seq > limit.seq).toBe(true)
      await session.close()
      expect(warnings).toEqual([])
    } finally {
      await server.close()
    }
  })

  test('maxCostUsd needs a priced model; a bad limit is refused', async () => {
    const box = await sandbox()
    const model = await scriptedModel(box.root, [{ kind: 'text', text: 'x' }])
    const base = { cwd: box.workspace, model, env: box.env, tackHome: box.tackHome }
    await expect(openSession({ ...base, maxCostUsd: 1 })).rejects.toThrow(
      /maxCostUsd needs the price of scripted\/.*, which the model catalogue does not list/,
    )
    await expect(openSession({ ...base, maxCostUsd: -1 })).rejects.toThrow(
      'maxCostUsd must be a positive number of US dollars (got -1)',
    )
  })

  test('mcpServers: a server given as an option is started and its tool called', async () => {
    const box = await sandbox()
    const model = await scriptedModel(box.root, [
      {
        kind: 'tool-calls',
        calls: [{ name: 'mcp__everything__echo', args: { message: 'through the library' } }],
      },
      { kind: 'text', text: 'echoed' },
    ])
    const session = await openSession({
      cwd: box.workspace,
      model,
      permissionMode: 'yolo',
      env: box.env,
      tackHome: box.tackHome,
      mcpServers: { everything: everythingServer as library.McpServer },
    })
    try {
      const result = await session.prompt('echo it').result
      expect(result.exitReason).toBe('completed')
      const echoed = session.events().find((e) => isEvent(e, 'tool/result'))
      expect(echoed?.data).toMatchObject({ name: 'mcp__everything__echo', isError: false })
      expect(JSON.stringify(echoed?.data)).toContain('through the library')
    } finally {
      await session.close()
    }
  })

  test('the runtime exports are the values api.ts declares, and VERSION is the package version', () => {
    const api = readFileSync(new URL('../src/library/api.ts', import.meta.url), 'utf8')
    const declared = [...api.matchAll(/^export declare (?:function|class|const) (\w+)/gm)].map((m) => m[1])
    expect(Object.keys(library).sort()).toEqual(declared.sort())
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
    expect(library.VERSION).toBe(pkg.version)
  })
})

/**
 * Checked by tsc, not at run time: each event's data as the log holds it is assignable to what the
 * declarations promise (api.ts TackEventMap is a structural copy, so a change to a logged shape that
 * breaks the promise fails the type check here).
 */
type Keeps<K extends keyof library.TackEventMap & keyof SessionEventMap> =
  SessionEventMap[K] extends library.TackEventMap[K] ? true : false
export const DECLARED_EVENTS_MATCH_THE_LOG: { [K in keyof library.TackEventMap]: Keeps<K> } = {
  'turn/start': true,
  'turn/end': true,
  'user/message': true,
  'assistant/chunk': true,
  'assistant/message': true,
  'tool/call': true,
  'tool/result': true,
  'approval/requested': true,
  'approval/resolved': true,
  'session/metadata': true,
  'session/limit': true,
}
