// Issue 11.7 through the real binary: a UserPromptSubmit hook that blocks the prompt ends `tack run`
// with exit 0 (as `claude -p` and `codex exec` do), the reason on stderr, no model request, and
// `reason.kind: "rejected"` in --json.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { startLoopbackServer } from '@tack/llm/testing'
import { expect, test } from 'vitest'
import { jsonLines, runTack, sandbox, writeLoopConfig } from './helpers.ts'

test('issue 11.7 a prompt blocked by a hook exits 0 with the reason on stderr, text and --json', async () => {
  const server = await startLoopbackServer({ script: [] })
  const box = await sandbox()
  try {
    await mkdir(join(box.home, '.claude'), { recursive: true })
    const block = `cat > /dev/null; echo 'Prompts mentioning prod are not accepted.' >&2; exit 2`
    await writeFile(
      join(box.home, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: block }] }] } }),
    )
    const config = await writeLoopConfig(box.root, server.baseUrl)
    const flags = ['--config', config, '--model', 'loop/m']
    const text = await runTack(['run', ...flags, 'deploy to prod'], { env: box.env, cwd: box.workspace })
    expect(text.code).toBe(0)
    expect(text.stdout).toBe('')
    expect(text.stderr).toContain('Prompts mentioning prod are not accepted.')

    const json = await runTack(['run', '--json', ...flags, 'deploy to prod'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(json.code).toBe(0)
    const result = jsonLines(json.stdout).at(-1) as { type: string; reason: { kind: string; reason: string } }
    expect(result.type).toBe('result')
    expect(result.reason.kind).toBe('rejected')
    expect(result.reason.reason).toContain('Prompts mentioning prod are not accepted.')
    expect(json.stderr).toContain('Prompts mentioning prod are not accepted.')
    expect(server.requests).toHaveLength(0)
  } finally {
    await server.close()
  }
})
