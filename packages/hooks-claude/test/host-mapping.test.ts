// docs/decisions/0210-host-protocol-packages.md: a tool from a plugin of its own (`label`, declaring
// `host.claude` as the Claude tool `Label` with input `{path, text}`) is seen by real Claude Code hook
// commands exactly as it declares — PreToolUse's tool_name and tool_input, an updatedInput rewrite read
// back into the tool's own argument names, PostToolUse's tool_response — and by the transcript, with no
// edit to the bridge (nothing in it names the tool or its arguments).
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { text, toolCalls } from '@tack/agent/testing'
import { defineTool, HostMappingReader } from '@tack/tools'
import { LabelToolPlugin, pluginOfTool } from '@tack/tools/testing'
import { describe, expect, it } from 'vitest'
import { renderClaudeTranscript } from '@tack/claude-protocol'
import { bridgeAgent, hook, prompt, recorded, tempDir } from './helpers.ts'

describe('0210 a plugin tool declares how Claude Code hooks see it', () => {
  it('0210 Label: tool_input in its Claude shape, updatedInput back in its own argument names, its tool_response', async () => {
    const dir = await tempDir('tack-hc-label-')
    const pre = join(dir, 'pre.jsonl')
    const post = join(dir, 'post.jsonl')
    // The PreToolUse hook records its stdin and rewrites the Claude-shaped input: another file, other text.
    const rewrite = `tee -a '${pre}' | jq -c '{hookSpecificOutput:{hookEventName:"PreToolUse",permissionDecision:"allow",updatedInput:{path:(.tool_input.path | sub("a.txt$";"b.txt")),text:"rewritten"}}}'`
    const t = await bridgeAgent({
      projectHooks: {
        ...hook('PreToolUse', rewrite, { matcher: 'Label' }),
        ...hook('PostToolUse', `cat >> '${post}'`, { matcher: 'Label' }),
      },
      plugins: [{ plugin: LabelToolPlugin }],
      script: [toolCalls([{ name: 'label', args: { target: 'a.txt', words: 'original' } }]), text('done')],
    })
    try {
      await t.agent.send(prompt('label a file'))
      const [[seenPre], [seenPost]] = await Promise.all([recorded(pre), recorded(post)])
      expect(seenPre).toMatchObject({
        hook_event_name: 'PreToolUse',
        tool_name: 'Label',
        tool_input: { path: join(t.cwd, 'a.txt'), text: 'original' },
      })
      // The rewrite came back through the tool's fromInput: tack's argument names, and it is what ran.
      expect(t.of('tool/arguments-rewritten').map((e) => e.data.arguments)).toEqual([
        { target: join(t.cwd, 'b.txt'), words: 'rewritten' },
      ])
      expect(await readFile(join(t.cwd, 'b.txt'), 'utf8')).toBe('rewritten')
      expect(existsSync(join(t.cwd, 'a.txt'))).toBe(false)

      expect(seenPost).toMatchObject({
        hook_event_name: 'PostToolUse',
        tool_name: 'Label',
        tool_input: { path: join(t.cwd, 'b.txt'), text: 'rewritten' },
        tool_response: { labelled: join(t.cwd, 'b.txt'), ok: true },
      })

      // The transcript (as `tack sessions export` renders it from the log) shows the model's call under
      // the same declaration.
      const lines = renderClaudeTranscript(
        t.agent.session.header,
        t.events(),
        new HostMappingReader('claude', t.ctx.tools),
      )
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
      const use = lines
        .flatMap((l) => (l.message as { content?: unknown } | undefined)?.content ?? [])
        .find((b) => (b as { type?: unknown }).type === 'tool_use')
      expect(use).toMatchObject({ name: 'Label', input: { path: join(t.cwd, 'a.txt'), text: 'original' } })
      expect(lines.find((l) => l.toolUseResult)?.toolUseResult).toEqual({ labelled: 'a.txt', ok: true })
      expect(t.warnings()).toEqual([])
    } finally {
      await t.dispose()
    }
  })

  it('0210 a rewrite the tool cannot read back (its fromInput throws) denies the call, warned', async () => {
    let ran = false
    const brittle = defineTool({
      name: 'brittle',
      description: 'Runs only as the model asked.',
      host: {
        claude: {
          name: 'Brittle',
          fromInput: () => {
            throw new Error('no way back')
          },
        },
      },
      parameters: { type: 'object', properties: { x: { type: 'string' } } },
      execute: () => {
        ran = true
        return 'ran'
      },
    })
    const BrittlePlugin = pluginOfTool('brittle-tool', brittle)
    const allowRewrite = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"x":"other"}}}'`
    const t = await bridgeAgent({
      projectHooks: hook('PreToolUse', allowRewrite, { matcher: 'Brittle' }),
      plugins: [{ plugin: BrittlePlugin }],
      script: [toolCalls([{ name: 'brittle', args: { x: 'asked' } }]), text('done')],
    })
    try {
      await t.agent.send(prompt('run it'))
      expect(ran).toBe(false)
      expect(t.of('tool/result')[0]?.data).toMatchObject({
        isError: true,
        error: { code: 'DENIED' },
        content: [{ text: 'tool "brittle": host.claude.fromInput threw: no way back' }],
      })
      expect(t.warnings()).toEqual([
        `a PreToolUse hook's updatedInput for Brittle could not be read back: tool "brittle": host.claude.fromInput threw: no way back`,
      ])
    } finally {
      await t.dispose()
    }
  })
})
