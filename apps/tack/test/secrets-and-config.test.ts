// Security 1 (90-quality): a canary key never reaches the log, an export, --json output, doctor or stderr —
// even when the provider echoes it back in an error. And config errors name the file, the key and the range.
import { readFileSync, readdirSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { startLoopbackServer } from '@tack/llm/testing'
import { describe, expect, test } from 'vitest'
import { jsonLines, runTack, sandbox, writeLoopConfig } from './helpers.ts'

const CANARY = 'sk-canary-7f3a9c2e41d84b6b'

function readAll(dir: string): string {
  let out = ''
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out += readFileSync(join(entry.parentPath, entry.name)).toString('latin1')
  }
  return out
}

describe('secrets', () => {
  test('security 1: a canary key appears in no log, export, --json output, doctor output or error', async () => {
    const server = await startLoopbackServer({
      expectApiKey: CANARY,
      script: [
        {
          kind: 'tool-calls',
          calls: [
            { name: 'bash', args: { command: 'echo "key=$LOOP_KEY token=$DEPLOY_TOKEN"; env | sort' } },
          ],
        },
        { kind: 'text', text: 'done' },
        { kind: 'http-error', status: 400, echoAuth: true, body: { error: { message: 'bad request' } } },
      ],
    })
    const box = await sandbox({ LOOP_KEY: CANARY, DEPLOY_TOKEN: `${CANARY}-deploy` })
    try {
      const config = await writeLoopConfig(box.root, server.baseUrl, { apiKeyEnv: 'LOOP_KEY' })
      const ok = await runTack(
        ['run', '--json', '--config', config, '--model', 'loop/m', 'show the environment'],
        { env: box.env, cwd: box.workspace },
      )
      expect(ok.code).toBe(0)
      expect(server.requests[0].authorized).toBe(true)
      const failed = await runTack(['run', '--json', '--config', config, '--model', 'loop/m', 'again'], {
        env: box.env,
        cwd: box.workspace,
      })
      expect(failed.code).toBe(1)
      const result = jsonLines(failed.stdout).at(-1) as { reason: { kind: string; message: string } }
      expect(result.reason.kind).toBe('error')
      const id = (jsonLines(ok.stdout).at(-1) as { sessionId: string }).sessionId
      const exported = await runTack(['sessions', 'export', id], { env: box.env, cwd: box.workspace })
      const markdown = await runTack(['sessions', 'export', id, '--format', 'markdown'], {
        env: box.env,
        cwd: box.workspace,
      })
      const doctor = await runTack(['doctor', '--config', config, '--model', 'loop/m'], {
        env: box.env,
        cwd: box.workspace,
      })
      expect(doctor.stdout).toContain('LOOP_KEY present')
      const everything = [
        ok.stdout,
        ok.stderr,
        failed.stdout,
        failed.stderr,
        exported.stdout,
        markdown.stdout,
        doctor.stdout,
        doctor.stderr,
        readAll(box.tackHome),
      ].join('\n')
      expect(everything).toContain('token=') // the bash call ran and its output was logged
      expect(everything).not.toContain(CANARY)
    } finally {
      await server.close()
    }
  })
})

describe('configuration errors', () => {
  test('80-cli §3.2: an unknown key fails at load naming the file and the key', async () => {
    const box = await sandbox()
    const config = join(box.root, 'bad.yml')
    await writeFile(config, 'model: local/m\nplugins:\n  bash:\n    timeoutMss: 5\n')
    const r = await runTack(['run', '--config', config, 'x'], { env: box.env, cwd: box.workspace })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`${config}: plugins.bash.timeoutMss: unknown key`)
  })

  test('80-cli §3.2: an out-of-range value fails naming the file, the key and the allowed range', async () => {
    const box = await sandbox()
    const { mkdir } = await import('node:fs/promises')
    await mkdir(join(box.workspace, '.tack'))
    const project = join(box.workspace, '.tack', 'config.yml')
    await writeFile(project, 'plugins:\n  agent:\n    maxStepsPerTurn: 0\n')
    // trusted: an untrusted project's loop limits are held back before they are read (0013)
    const r = await runTack(['run', '--trust', '--model', 'local/m', 'x'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(
      `${project}: plugins.agent.maxStepsPerTurn: must be an integer 1–1000000 (got 0)`,
    )
  })

  test('80-cli §4.1: no usable model fails at once naming the three ways to configure one', async () => {
    const box = await sandbox()
    const r = await runTack(['run', 'x'], { env: box.env, cwd: box.workspace })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/DEEPSEEK_API_KEY/)
    expect(r.stderr).toMatch(/--model provider\/model/)
    expect(r.stderr).toMatch(/config\.yml/)
    expect(r.stderr.trim().split('\n')).toHaveLength(1)
  })

  test('80-cli §1.2: --version and --help answer without creating files under the home folder', async () => {
    const box = await sandbox()
    const v = await runTack(['--version'], { env: box.env, cwd: box.workspace })
    const h = await runTack(['--help'], { env: box.env, cwd: box.workspace })
    expect(v.stdout).toMatch(/^tack \d+\.\d+\.\d+\n$/)
    expect(h.stdout).toContain('tack run "task"')
    expect(readdirSync(box.home)).toEqual([])
    expect(() => readdirSync(box.tackHome)).toThrow()
  })
})
