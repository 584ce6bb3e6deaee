// `@path` mentions in the real agent loop (85-skills-and-commands.md I1,
// docs/decisions/0280-file-mentions.md): only the model is scripted. An attached file counts as read for
// read-before-edit (TL-13); a folder's listing counts withheld files without naming them; a plugin's
// prompt and a subagent-style prompt read nothing; `mentionMaxFiles: 0` turns mentions off.
import { createTestAgent, text, toolCalls } from '@tack/agent/testing'
import type { SessionEvent } from '@tack/session'
import type { WithheldPaths } from '@tack/tools'
import { describe, expect, it } from 'vitest'
import { FsToolsPlugin } from '../../src/index.ts'
import { tempDir, writeTree } from '../support.ts'

const user = (content: string) => ({ content, source: { kind: 'user' } as const })
const attached = (events: readonly SessionEvent[]) =>
  events
    .filter((e) => e.type === 'context/message')
    .map((e) => (e.data as { content: { text: string }[] }).content[0]?.text ?? '')

/** The permissions plugin's service, answering for files named `*.secret` (docs/decisions/0118-deny-rules-in-search-results.md). */
const withholdSecrets = {
  name: 'withhold-secrets',
  apply(ctx: { provide(name: string, value: WithheldPaths): void }) {
    ctx.provide('withheldPaths', {
      forCall: async () => (path: string) => path.endsWith('.secret'),
    })
  },
}

describe('@path mentions in the loop', () => {
  it('TL-13 an attached file counts as read: an edit of it needs no read first', async () => {
    const cwd = await tempDir()
    await writeTree(cwd, { 'a.txt': 'one\n' })
    const t = await createTestAgent({
      cwd,
      plugins: [{ plugin: FsToolsPlugin, config: {} }],
      script: [
        toolCalls([{ name: 'edit', args: { file_path: 'a.txt', old_string: 'one', new_string: 'two' } }]),
        text('edited'),
      ],
    })
    await t.agent.send(user('fix @a.txt'))
    expect(attached(t.events())).toEqual(['@a.txt (file a.txt):\n1\tone'])
    const result = t.events().find((e) => e.type === 'tool/result')?.data as { isError: boolean }
    expect(result.isError).toBe(false)
    await t.dispose()
  })

  it("a folder's listing names its entries and counts withheld files without naming them", async () => {
    const cwd = await tempDir()
    await writeTree(cwd, { 'src/a.ts': 'a', 'src/keys.secret': 'k', 'src/lib/b.ts': 'b' })
    const t = await createTestAgent({
      cwd,
      plugins: [{ plugin: withholdSecrets }, { plugin: FsToolsPlugin, config: {} }],
      script: [text('listed')],
    })
    await t.agent.send(user('what is in @src?'))
    expect(attached(t.events())).toEqual([
      '@src (folder src):\na.ts\nlib/\n\n[1 file withheld by permission deny rules: not listed.]',
    ])
    await t.dispose()
  })

  it("a plugin's prompt reads no mention, and mentionMaxFiles 0 turns mentions off", async () => {
    const cwd = await tempDir()
    await writeTree(cwd, { 'a.txt': 'one\n' })
    const plugin = await createTestAgent({
      cwd,
      plugins: [{ plugin: FsToolsPlugin, config: {} }],
      script: [text('ok')],
    })
    await plugin.agent.send({ content: 'see @a.txt', source: { kind: 'plugin', name: 'someone' } })
    expect(attached(plugin.events())).toEqual([])
    await plugin.dispose()
    const off = await createTestAgent({
      cwd,
      plugins: [{ plugin: FsToolsPlugin, config: { mentionMaxFiles: 0 } }],
      script: [text('ok')],
    })
    await off.agent.send(user('see @a.txt'))
    expect(attached(off.events())).toEqual([])
    await off.dispose()
  })
})
