// B9: the Claude-Code-shaped transcript that transcript_path names, kept in step with the log.
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { text, toolCalls } from '@tack/agent/testing'
import type { SessionEvent } from '@tack/session'
import { HostMappingReader } from '@tack/tools'
import { describe, expect, it } from 'vitest'
import { renderClaudeTranscript, renderTranscript, transcriptUuid } from '@tack/claude-protocol'
import { bridgeAgent, prompt } from './helpers.ts'

const stopReader = [
  'input=$(cat)',
  'tp=$(echo "$input" | jq -r .transcript_path)',
  // The ralph-loop way: the last line with "role":"assistant" (no space after the colon), its text blocks.
  'grep \'"role":"assistant"\' "$tp" | tail -1 | jq -r \'.message.content[]|select(.type=="text")|.text\' > final.txt',
  // A turn counter: user lines that are not tool results.
  'jq -s \'[.[] | select(.type=="user" and (.toolUseResult|not))] | length\' "$tp" >> turns.txt',
].join('\n')

describe('B9 transcript', () => {
  it('B9 a Stop hook that greps "role":"assistant" prints the final answer; a turn counter counts user turns correctly', async () => {
    const t = await bridgeAgent({
      projectHooks: {
        Stop: [{ hooks: [{ type: 'command', command: stopReader }] }],
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo "remember the style guide"' }] }],
        PostToolUse: [
          {
            hooks: [
              {
                type: 'command',
                command:
                  'echo \'{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"checked"}}\'',
              },
            ],
          },
        ],
      },
      script: [
        toolCalls([{ name: 'bash', args: { command: 'echo one' } }]),
        text('First answer.'),
        toolCalls([
          { name: 'bash', args: { command: 'echo two' } },
          { name: 'bash', args: { command: 'echo three' } },
        ]),
        text('Second answer.'),
        text('Third answer, all done.'),
      ],
    })
    try {
      await t.agent.send(prompt('turn one'))
      expect((await readFile(join(t.cwd, 'final.txt'), 'utf8')).trim()).toBe('First answer.')
      await t.agent.send(prompt('turn two'))
      await t.agent.send(prompt('turn three'))
      expect((await readFile(join(t.cwd, 'final.txt'), 'utf8')).trim()).toBe('Third answer, all done.')
      expect((await readFile(join(t.cwd, 'turns.txt'), 'utf8')).trim().split('\n')).toEqual(['1', '2', '3'])
      // Nothing is written under the home's .claude.
      expect(existsSync(join(t.home, '.claude'))).toBe(false)
    } finally {
      await t.dispose()
    }
  })

  it('B9 the file is compact lines chained by uuid, with Claude names, tool results and context lines; it equals the export', async () => {
    const t = await bridgeAgent({
      projectHooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] },
      script: [
        toolCalls([{ name: 'bash', args: { command: 'echo hi', description: 'greet' } }], {
          reasoning: 'think',
        }),
        text('bye'),
      ],
    })
    try {
      t.agent.inject({ content: 'injected note', source: { kind: 'plugin', name: 'notes' } })
      await t.agent.send(prompt('hello'))
      const raw = await readFile(t.transcriptPath(), 'utf8')
      const lines = raw.trim().split('\n')
      expect(lines.every((l) => !l.includes('": '))).toBe(true)
      const parsed = lines.map((l) => JSON.parse(l))
      expect(parsed.map((l) => l.type)).toEqual(['system', 'user', 'assistant', 'user', 'assistant'])
      expect(parsed[0]).toMatchObject({
        parentUuid: null,
        isSidechain: false,
        subtype: 'context',
        content: 'injected note',
        isMeta: true,
      })
      for (let i = 1; i < parsed.length; i++) expect(parsed[i].parentUuid).toBe(parsed[i - 1].uuid)
      expect(parsed[1]).toMatchObject({
        message: { role: 'user', content: 'hello' },
        sessionId: t.agent.session.id,
        cwd: t.cwd,
        version: expect.any(String),
      })
      expect(parsed[2].message).toEqual({
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'think' },
          {
            type: 'tool_use',
            id: 'call_1',
            name: 'Bash',
            input: { command: 'echo hi', description: 'greet' },
          },
        ],
      })
      expect(parsed[3]).toMatchObject({
        message: {
          role: 'user',
          content: [{ tool_use_id: 'call_1', type: 'tool_result', content: 'hi', is_error: false }],
        },
        toolUseResult: {
          stdout: 'hi',
          stderr: '',
          interrupted: false,
          isImage: false,
          noOutputExpected: false,
        },
      })
      const events = t.events()
      const userEvent = events.find((e) => e.type === 'user/message') as SessionEvent
      expect(parsed[1].uuid).toBe(transcriptUuid(t.agent.session.id, userEvent.seq))
      expect(parsed[1].timestamp).toBe(userEvent.time)
      // The export reads the same declarations (0011); without the tools it keeps tack's names.
      const tools = new HostMappingReader('claude', t.ctx.tools)
      expect(renderClaudeTranscript(t.agent.session.header, events, tools)).toBe(raw)
      expect(renderTranscript(events, { sessionId: t.agent.session.id, cwd: t.cwd, tools })).toBe(raw)
      expect(renderClaudeTranscript(t.agent.session.header, events)).toContain('"name":"bash"')
    } finally {
      await t.dispose()
    }
  })

  it('B9 uuids are deterministic and version-5 shaped', () => {
    const a = transcriptUuid('s', 3)
    expect(a).toBe(transcriptUuid('s', 3))
    expect(a).not.toBe(transcriptUuid('s', 4))
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })
})
