// A real session for the web view to show: the real loop, tool registry, fs and bash tools and SQLite
// store, with only the model scripted. The server reads the same database file through a store of its
// own, as `tack serve` reads the file a `tack run` in another process writes.
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTestAgent, type ScriptEntry, type TestAgent, text, toolCalls } from '@tack/agent/testing'
import type { SessionStore } from '@tack/session'
import { SqliteSessionStore, SqliteStorePlugin } from '@tack/store-sqlite'
import { BashToolPlugin } from '@tack/tool-bash'
import { FsToolsPlugin } from '@tack/tool-fs'
import type { Projection } from '../src/session-feed.ts'

/** What a hostile file holds: markup that would run if the page ever treated log text as HTML. */
export const HOSTILE =
  '<script>window.__pwned = "script"</script><img src=x onerror="window.__pwned = \'img\'">'

export interface Recorded {
  readonly agent: TestAgent
  /** The server's own store over the same file. */
  readonly store: SessionStore
  readonly projection: Projection
  readonly sessionId: string
  send(prompt: string): Promise<void>
  close(): Promise<void>
}

/** A session that reads a file, edits it, runs a failing command printing `HOSTILE`, and answers. */
export const EDIT_SCRIPT: readonly ScriptEntry[] = [
  toolCalls([{ name: 'read', args: { file_path: 'a.txt' } }], {
    usage: { inputTokens: 1000, outputTokens: 40 },
  }),
  toolCalls([{ name: 'edit', args: { file_path: 'a.txt', old_string: 'two', new_string: 'TWO' } }], {
    usage: { inputTokens: 1200, outputTokens: 30 },
  }),
  toolCalls([{ name: 'bash', args: { command: 'cat hostile.html; exit 3' } }], {
    usage: { inputTokens: 1300, outputTokens: 20 },
  }),
  text(`Changed it. ${HOSTILE}`, { usage: { inputTokens: 1400, outputTokens: 10 } }),
]

export async function recordSession(script: readonly ScriptEntry[], firstPrompt: string): Promise<Recorded> {
  const root = await mkdtemp(join(tmpdir(), 'tack-web-'))
  const cwd = join(root, 'ws')
  const { mkdir } = await import('node:fs/promises')
  await mkdir(cwd)
  await writeFile(join(cwd, 'a.txt'), 'one\ntwo\nthree\n')
  await writeFile(join(cwd, 'hostile.html'), `${HOSTILE}\n`)
  const agent = await createTestAgent({
    cwd,
    script,
    config: { sessions: { store: 'external' } },
    plugins: [
      { plugin: SqliteStorePlugin, config: { dataDir: root } },
      { plugin: FsToolsPlugin, config: {} },
      { plugin: BashToolPlugin, config: {} },
    ],
  })
  const send = async (prompt: string) => {
    await agent.agent.send({ content: prompt, source: { kind: 'user' } })
  }
  await send(firstPrompt)
  const store = SqliteSessionStore.open({ dataDir: root })
  return {
    agent,
    store,
    projection: {
      presenter: agent.ctx.tools,
      // one dollar per million tokens, so the page shows a cost
      pricing: {
        costOf: (_m, u) => (u.inputTokens + u.outputTokens) / 1_000_000,
        contextWindowOf: () => 100_000,
      },
    },
    sessionId: agent.agent.session.id,
    send,
    close: async () => {
      await store.close()
      await agent.dispose()
    },
  }
}
