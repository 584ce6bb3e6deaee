// D1: a realistic hook set — the kind users keep in `.claude/settings.json`, written as standalone
// scripts (bash, jq, node) that know nothing of tack — runs unmodified in a scripted multi-turn session.
import { existsSync } from 'node:fs'
import { mkdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { text, toolCalls } from '@tack/agent/testing'
import { FsToolsPlugin } from '@tack/tool-fs'
import { describe, expect, it } from 'vitest'
import { bridgeAgent, projectHookCommand, prompt, script, tempDir, writeSettings } from './helpers.ts'

async function installHooks(ws: string): Promise<void> {
  const dir = join(ws, '.claude', 'hooks')
  await mkdir(dir, { recursive: true })
  await script(dir, 'session-start.sh', 'cat > /dev/null\necho "This project uses pnpm and strict bash."')
  await script(
    dir,
    'block-rm.sh',
    [
      'command=$(jq -r ".tool_input.command // empty")',
      'if echo "$command" | grep -Eq "rm[[:space:]]+-[a-zA-Z]*r[a-zA-Z]*f|rm[[:space:]]+-[a-zA-Z]*f[a-zA-Z]*r"; then',
      '  echo "Blocked dangerous command: $command. Delete specific files instead." >&2',
      '  exit 2',
      'fi',
      'exit 0',
    ].join('\n'),
  )
  await script(
    dir,
    'strict-bash.js',
    [
      '#!/usr/bin/env node',
      "let raw = ''",
      "process.stdin.on('data', (d) => (raw += d))",
      "process.stdin.on('end', () => {",
      '  const input = JSON.parse(raw)',
      '  const command = input.tool_input.command',
      "  if (command.startsWith('set -euo pipefail')) return",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the hook's own JavaScript source
      '  const updatedInput = { ...input.tool_input, command: `set -euo pipefail; ${command}` }',
      "  process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: 'strict mode added', updatedInput } }))",
      '})',
      '',
    ].join('\n'),
  )
  await script(
    dir,
    'format.sh',
    [
      'file=$(jq -r ".tool_input.file_path")',
      '[ -f "$file" ] || exit 0',
      'sed -i \'s/[[:space:]]*$//\' "$file"',
      'jq -nc --arg f "$(basename "$file")" \'{hookSpecificOutput: {hookEventName: "PostToolUse", additionalContext: ("Formatted " + $f + " (trailing whitespace removed).")}}\'',
    ].join('\n'),
  )
  await script(dir, 'prompt-context.sh', 'cat > /dev/null\necho "Reminder: run the tests before you finish."')
  await script(
    dir,
    'prompt-guard.sh',
    [
      'prompt=$(jq -r .prompt)',
      'if echo "$prompt" | grep -qi "drop table"; then',
      '  jq -nc \'{decision: "block", reason: "Destructive SQL is not accepted in prompts."}\'',
      'fi',
    ].join('\n'),
  )
  await script(
    dir,
    'stop-check.sh',
    [
      'input=$(cat)',
      'if [ "$(echo "$input" | jq -r .stop_hook_active)" = "true" ]; then exit 0; fi',
      'jq -n \'{decision: "block", reason: "Confirm that the tests pass before stopping.", systemMessage: "stop check asked for one more step"}\'',
    ].join('\n'),
  )
  await script(
    dir,
    'count-turns.sh',
    [
      'tp=$(jq -r .transcript_path)',
      'jq -s \'[.[] | select(.type == "user" and (.toolUseResult | not))] | length\' "$tp" >> "$CLAUDE_PROJECT_DIR/turns.log"',
    ].join('\n'),
  )
  const cmd = (name: string) => projectHookCommand(name, { timeout: 30 })
  await writeSettings(join(ws, '.claude', 'settings.json'), {
    SessionStart: [{ matcher: 'startup|resume', hooks: [cmd('session-start.sh')] }],
    UserPromptSubmit: [{ hooks: [cmd('prompt-guard.sh'), cmd('prompt-context.sh')] }],
    PreToolUse: [{ matcher: 'Bash', hooks: [cmd('block-rm.sh'), cmd('strict-bash.js')] }],
    PostToolUse: [{ matcher: 'Write|Edit|MultiEdit', hooks: [cmd('format.sh')] }],
    Stop: [{ hooks: [cmd('stop-check.sh'), cmd('count-turns.sh')] }],
  })
}

describe('D1 a realistic hook set in a scripted session', () => {
  it('D1 guard, rewrite, formatter, prompt context and block, one Stop continuation, SessionStart context, turn counter', async () => {
    const ws = await tempDir('tack-hc-real-')
    await installHooks(ws)
    await mkdir(join(ws, 'build'))
    const t = await bridgeAgent({
      cwd: ws,
      plugins: [{ plugin: FsToolsPlugin }],
      script: [
        // turn 1
        toolCalls([{ name: 'bash', args: { command: 'rm -rf build' } }]),
        toolCalls([{ name: 'bash', args: { command: 'echo hello from bash' } }]),
        toolCalls([{ name: 'write', args: { file_path: 'notes.md', content: 'title   \nbody \n' } }]),
        text('Done.'),
        text('Tests pass. Done.'),
        // turn 3 (turn 2 is blocked before any request)
        text('Status: fine.'),
        text('Status: fine, tests pass.'),
      ],
    })
    try {
      expect((await t.agent.send(prompt('set things up'))).reason).toEqual({ kind: 'completed' })
      const requests = t.requestTexts()
      // SessionStart plain stdout and UserPromptSubmit context reach the first request.
      expect(requests[0]).toContain(
        'SessionStart:startup hook success: This project uses pnpm and strict bash.',
      )
      expect(requests[0]).toContain(
        'UserPromptSubmit hook success: Reminder: run the tests before you finish.',
      )
      // The guard denied rm -rf with a reason the model sees; the folder is still there.
      expect(existsSync(join(ws, 'build'))).toBe(true)
      expect(requests[1]).toContain('PreToolUse:Bash hook error: Blocked dangerous command: rm -rf build.')
      // The node hook rewrote the second command (strict mode) through TL-32.
      expect(t.of('tool/arguments-rewritten').map((e) => e.data.arguments)).toEqual([
        { command: 'set -euo pipefail; echo hello from bash' },
      ])
      expect(t.of('tool/result')[1].data.content[0].text).toBe('hello from bash')
      // The formatter cleaned the file and told the model.
      expect(await readFile(join(ws, 'notes.md'), 'utf8')).toBe('title\nbody\n')
      expect(requests[3]).toContain(
        'PostToolUse:Write hook additional context: Formatted notes.md (trailing whitespace removed).',
      )
      // Stop forced exactly one continuation, with its reason; its systemMessage is for the user.
      expect(t.of('steering/message').map((e) => e.data.content[0].text)).toEqual([
        'Stop hook feedback:\nConfirm that the tests pass before stopping.',
      ])
      expect(
        t.of('hook/result').some((e) => e.data.systemMessage === 'stop check asked for one more step'),
      ).toBe(true)

      // turn 2: the prompt guard blocks; no request is made.
      const blocked = await t.agent.send(prompt('please DROP TABLE users'))
      expect(blocked.reason).toEqual({
        kind: 'rejected',
        reason: 'Destructive SQL is not accepted in prompts.',
      })
      expect(t.model.requests).toHaveLength(5)

      // turn 3: another single continuation; the counter saw 1, 1, then 2, 2 user turns.
      await t.agent.send(prompt('status?'))
      expect(t.model.remaining).toBe(0)
      expect((await readFile(join(ws, 'turns.log'), 'utf8')).trim().split('\n')).toEqual(['1', '1', '2', '2'])
      expect(t.warnings()).toEqual([])
    } finally {
      await t.dispose()
    }
  })
})
