// D1: hooks written the way public Codex hook examples are (bash + jq, node), run unmodified by the
// bridge through the real loop: a jq guard on Bash commands, a node guard on apply_patch paths, a
// jq "keep going once" Stop hook and a plain-stdout SessionStart hook.
import { existsSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { text, toolCalls } from '@tack/agent/testing'
import { describe, expect, it } from 'vitest'
import {
  bridgeContexts,
  codexAgent,
  eventsOf,
  homes,
  hooksJson,
  script,
  user,
  writeUserHooks,
} from './helpers.ts'

describe('example hooks (bash, jq, node)', () => {
  it('D1 a jq Bash guard blocks rm -rf with exit 2 and lets other commands run', async () => {
    const h = await homes()
    const guard = await script(
      h.work,
      'guard.sh',
      [
        'cmd=$(jq -r ".tool_input.command // empty")',
        'case "$cmd" in',
        '  *"rm -rf"*) echo "Blocked dangerous command: $cmd" >&2; exit 2 ;;',
        'esac',
        'exit 0',
      ].join('\n'),
    )
    await writeUserHooks(h, hooksJson({ PreToolUse: [{ matcher: '^Bash$', command: guard }] }))
    await writeFile(join(h.workspace, 'keep.txt'), 'precious')
    const t = await codexAgent({
      homes: h,
      script: [
        toolCalls([{ name: 'bash', args: { command: 'rm -rf keep.txt' } }]),
        toolCalls([{ name: 'bash', args: { command: 'touch ok.txt' } }]),
        text('done'),
      ],
    })
    try {
      await t.agent.send(user('clean up'))
      expect(existsSync(join(h.workspace, 'keep.txt'))).toBe(true)
      expect(existsSync(join(h.workspace, 'ok.txt'))).toBe(true)
      const results = eventsOf(t, 'tool/result').map((e) => e.data.content[0].text)
      expect(results[0]).toBe(
        'Command blocked by PreToolUse hook: Blocked dangerous command: rm -rf keep.txt. Command: rm -rf keep.txt',
      )
    } finally {
      await t.dispose()
    }
  })

  it('D1 a node apply_patch guard reads the patch paths and denies edits to .env with JSON', async () => {
    const h = await homes()
    const guardJs = join(h.work, 'guard.mjs')
    await writeFile(
      guardJs,
      [
        "let input = ''",
        "process.stdin.on('data', (c) => (input += c))",
        "process.stdin.on('end', () => {",
        '  const payload = JSON.parse(input)',
        "  const patch = payload.tool_input?.command ?? ''",
        '  const files = [...patch.matchAll(/^\\*\\*\\* (?:Add|Update|Delete) File: (.+)$/gm)].map((m) => m[1])',
        "  const secret = files.find((f) => f === '.env' || f.endsWith('/.env'))",
        '  if (secret) {',
        '    process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse",',
        '      permissionDecision: "deny", permissionDecisionReason: "editing " + secret + " is not allowed" } }))',
        '  }',
        '})',
      ].join('\n'),
    )
    await writeUserHooks(
      h,
      hooksJson({ PreToolUse: [{ matcher: 'Edit|Write', command: `node ${guardJs}` }] }),
    )
    const t = await codexAgent({
      homes: h,
      script: [
        toolCalls([{ name: 'write', args: { file_path: '.env', content: 'KEY=1\n' } }]),
        toolCalls([{ name: 'write', args: { file_path: 'readme.md', content: '# hi\n' } }]),
        text('done'),
      ],
    })
    try {
      await t.agent.send(user('write files'))
      expect(existsSync(join(h.workspace, '.env'))).toBe(false)
      expect(existsSync(join(h.workspace, 'readme.md'))).toBe(true)
      expect(eventsOf(t, 'tool/result')[0].data.content[0].text).toBe(
        'Command blocked by PreToolUse hook: editing .env is not allowed. Command: *** Begin Patch\n*** Add File: .env\n+KEY=1\n*** End Patch',
      )
    } finally {
      await t.dispose()
    }
  })

  it('D1 a jq Stop hook asks for one more pass unless stop_hook_active, and a SessionStart hook adds context', async () => {
    const h = await homes()
    const stop = await script(
      h.work,
      'stop.sh',
      [
        'active=$(jq -r ".stop_hook_active")',
        'if [ "$active" = "false" ]; then',
        '  jq -n \'{decision: "block", reason: "Run the tests before finishing."}\'',
        'fi',
      ].join('\n'),
    )
    const start = await script(
      h.work,
      'start.sh',
      'cat > /dev/null; echo "Project uses pnpm; run pnpm test."',
    )
    await writeUserHooks(
      h,
      hooksJson({ Stop: [{ command: stop }], SessionStart: [{ matcher: 'startup|resume', command: start }] }),
    )
    const t = await codexAgent({ homes: h, script: [text('finished'), text('tests pass, finished')] })
    try {
      const outcome = await t.agent.send(user('fix the bug'))
      expect(outcome.reason).toEqual({ kind: 'completed' })
      expect(bridgeContexts(t)).toEqual(['Project uses pnpm; run pnpm test.'])
      expect(eventsOf(t, 'steering/message').map((e) => e.data.content[0].text)).toEqual([
        'Run the tests before finishing.',
      ])
      expect(t.model.requests).toHaveLength(2)
    } finally {
      await t.dispose()
    }
  })
})
