// Issue 4 through the real binary: a user's unmodified Claude Code hooks in ~/.claude/settings.json run
// in a scripted `tack run` — SessionStart plain stdout and UserPromptSubmit context reach the model, a
// PreToolUse guard denies `rm -rf` with a reason the model sees, a Stop hook that reads transcript_path
// forces exactly one continuation and respects stop_hook_active, and a systemMessage reaches stderr.
import { chmod, mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { startLoopbackServer } from '@tack/llm/testing'
import { expect, test } from 'vitest'
import { jsonLines, runTack, sandbox, writeLoopConfig } from './helpers.ts'

test('issue 4: a realistic Claude Code hook set runs unmodified in tack run', async () => {
  const server = await startLoopbackServer({
    script: [
      { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'rm -rf build' } }] },
      { kind: 'text', text: 'first answer' },
      { kind: 'text', text: 'double-checked answer' },
    ],
  })
  const box = await sandbox()
  try {
    const guard = join(box.home, 'guard.sh')
    await writeFile(
      guard,
      `#!/usr/bin/env bash\ninput=$(cat)\nif printf '%s' "$input" | grep -q 'rm -rf'; then echo "Blocked: rm -rf is not allowed here" >&2; exit 2; fi\nexit 0\n`,
    )
    const stop = join(box.home, 'stop.sh')
    await writeFile(
      stop,
      [
        '#!/usr/bin/env bash',
        'input=$(cat)',
        `if printf '%s' "$input" | grep -q '"stop_hook_active":true'; then exit 0; fi`,
        `transcript=$(printf '%s' "$input" | jq -r .transcript_path)`,
        // user turns = user lines whose content is a plain string (typed prompts), as such hooks count them
        `turns=$(jq -s '[.[] | select(.type == "user" and (.message.content | type) == "string")] | length' "$transcript")`,
        'echo "Please double-check before finishing (user turns: $turns)" >&2',
        'exit 2',
        '',
      ].join('\n'),
    )
    await chmod(guard, 0o755)
    await chmod(stop, 0o755)
    await mkdir(join(box.home, '.claude'), { recursive: true })
    const settings = {
      hooks: {
        SessionStart: [{ hooks: [{ type: 'command', command: "echo 'Project rule: indent with tabs.'" }] }],
        UserPromptSubmit: [
          {
            hooks: [
              {
                type: 'command',
                command: `echo '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"ctx-from-prompt-hook"},"systemMessage":"prompt hook ran"}'`,
              },
            ],
          },
        ],
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: guard }] }],
        Stop: [{ hooks: [{ type: 'command', command: stop }] }],
      },
    }
    await writeFile(join(box.home, '.claude', 'settings.json'), JSON.stringify(settings))
    const config = await writeLoopConfig(box.root, server.baseUrl)

    const list = await runTack(['hooks', 'list'], { env: box.env, cwd: box.workspace })
    expect(list.stdout).toContain('PreToolUse')
    expect(list.stdout).toContain(join(box.home, '.claude', 'settings.json'))

    const run = await runTack(['run', '--json', '--config', config, '--model', 'loop/m', 'clean the build'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(run.code).toBe(0)
    const lines = jsonLines(run.stdout)
    expect(server.requests).toHaveLength(3)
    const first = JSON.stringify((server.requests[0].body as { messages: unknown[] }).messages)
    expect(first).toContain('Project rule: indent with tabs.')
    expect(first).toContain('ctx-from-prompt-hook')
    const result = lines.find((l) => l.type === 'tool/result') as {
      data: { isError: boolean; error?: { code: string }; content: Array<{ text: string }> }
    }
    expect(result.data.isError).toBe(true)
    expect(result.data.error?.code).toBe('DENIED')
    expect(result.data.content[0].text).toContain('rm -rf is not allowed here')
    const third = JSON.stringify((server.requests[2].body as { messages: unknown[] }).messages)
    expect(third).toContain('Please double-check before finishing (user turns: 1)')
    const steering = lines.filter((l) => l.type === 'steering/message')
    expect(steering).toHaveLength(1)
    expect((lines.at(-1) as { answer: string }).answer).toBe('double-checked answer')
    // the systemMessage is for the user: in --json it is in the hook/result line, never in a request
    expect(
      lines.some((l) => l.type === 'hook/result' && JSON.stringify(l.data).includes('prompt hook ran')),
    ).toBe(true)
    expect(JSON.stringify(server.requests.map((r) => r.body))).not.toContain('prompt hook ran')

    // without --json the systemMessage goes to stderr
    server.push({ kind: 'text', text: 'ok' })
    const plain = await runTack(['run', '--config', config, '--model', 'loop/m', 'say ok'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(plain.stderr).toContain('prompt hook ran')
  } finally {
    await server.close()
  }
})
