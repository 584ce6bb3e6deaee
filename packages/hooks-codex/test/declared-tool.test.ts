// Issue 8 item 2 for the Codex bridge (0011-tool-declarations.md): the `stamp` test tool declares its Codex
// name `stamp_file`; a real Codex `PreToolUse` hook matches that name and receives it in `tool_name`, with
// the tool's own arguments as `tool_input`. Nothing in the bridge names the tool.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { text, toolCalls } from '@tack/agent/testing'
import { StampToolPlugin } from '@tack/tools/testing'
import { describe, expect, it } from 'vitest'
import { codexAgent, eventsOf, homes, hooksJson, script, user, writeUserHooks } from './helpers.ts'

describe('0011 a tool that describes itself, seen by Codex hooks', () => {
  it('issue 8.2: stamp reaches a PreToolUse hook matching ^stamp_file$ as stamp_file, and its exit 2 denies it', async () => {
    const h = await homes()
    const seen = join(h.work, 'pre.json')
    const hook = await script(h.work, 'pre.sh', `cat > '${seen}'; echo "no stamps" >&2; exit 2`)
    await writeUserHooks(h, hooksJson({ PreToolUse: [{ matcher: '^stamp_file$', command: hook }] }))
    const t = await codexAgent({
      homes: h,
      plugins: [{ plugin: StampToolPlugin }],
      script: [toolCalls([{ name: 'stamp', args: { file_path: 'a.txt', text: 'hi' } }]), text('ok')],
    })
    try {
      await t.agent.send(user('stamp a file'))
      const payload = JSON.parse(await readFile(seen, 'utf8')) as Record<string, unknown>
      expect(payload).toMatchObject({
        hook_event_name: 'PreToolUse',
        tool_name: 'stamp_file',
        tool_input: { file_path: 'a.txt', text: 'hi' },
      })
      const result = eventsOf(t, 'tool/result')[0].data
      expect(result).toMatchObject({ isError: true, error: { code: 'DENIED' } })
      expect(result.content[0].text).toContain('no stamps')
    } finally {
      await t.dispose()
    }
  })
})
