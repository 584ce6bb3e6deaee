// Security 1 (90-quality) for the commands that only read the store: `tack sessions show|export` and
// `tack rewind` boot without the model endpoints, so the key variable an endpoint names (`apiKeyEnv`,
// here an ordinary-looking `GPU_PASS`) was unknown to their redactor, and a key the model's answer
// repeated was printed as it was logged (apps/tack/src/store-read-secrets.ts).
import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { startLoopbackServer } from '@tack/llm/testing'
import { expect, test } from 'vitest'
import { jsonLines, runTack, sandbox, writeLoopConfig } from './helpers.ts'

const KEY = 'gpu-7c1e93b8d24f4a06a5'

test('a key named by an endpoint is redacted from sessions show, export and rewind, as from run', async () => {
  const server = await startLoopbackServer({
    expectApiKey: KEY,
    script: [{ kind: 'text', text: `your key is ${KEY}, keep it safe` }],
  })
  const box = await sandbox({ GPU_PASS: KEY })
  try {
    // The person's own config, which every command reads: the endpoint and the variable it names.
    const config = await writeLoopConfig(box.root, server.baseUrl, { apiKeyEnv: 'GPU_PASS' })
    await mkdir(box.tackHome, { recursive: true })
    await copyFile(config, join(box.tackHome, 'config.yml'))
    const run = await runTack(['run', '--json', '--model', 'loop/m', 'what is my key?'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(run.code).toBe(0)
    expect(server.requests[0].authorized).toBe(true)
    const id = (jsonLines(run.stdout).at(-1) as { sessionId: string }).sessionId
    // The log keeps what the model said (it reads it again on resume): the commands below must redact.
    const logged = await readLog(box.tackHome)
    expect(logged).toContain(KEY)
    const commands = [
      ['sessions', 'show', id],
      ['sessions', 'export', id],
      ['sessions', 'export', id, '--format', 'markdown'],
      ['sessions', 'list', '--json'],
      ['rewind', '--resume', id],
    ]
    for (const args of commands) {
      const out = await runTack(args, { env: box.env, cwd: box.workspace })
      expect(out.code, `${args.join(' ')}: ${out.stderr}`).toBe(0)
      expect(out.stdout + out.stderr, args.join(' ')).not.toContain(KEY)
    }
    const show = await runTack(['sessions', 'show', id], { env: box.env, cwd: box.workspace })
    expect(show.stdout).toContain('your key is [redacted]')
    expect(run.stdout).not.toContain(KEY)
  } finally {
    await server.close()
  }
})

/** Every byte under TACK_HOME's session store, as text. */
async function readLog(tackHome: string): Promise<string> {
  let text = ''
  for (const name of await readdir(tackHome, { recursive: true })) {
    if (!String(name).includes('sessions')) continue
    text += await readFile(join(tackHome, String(name)), 'latin1').catch(() => '')
  }
  return text
}

test('a secret is redacted before a line is cut, in its JSON-escaped form, and a .env value the shell overrides', async () => {
  const token = 'Sup3r"Secret\\Val' // a quote and a backslash: escaped in every JSON that carries it
  const fileValue = 'FILEVALUE-1234567'
  const server = await startLoopbackServer({
    script: [{ kind: 'text', text: `noted: ${token} and ${fileValue}` }],
  })
  // MY_THING's value in the shell differs from the one in $TACK_HOME/.env, which the session saw
  const box = await sandbox({ FOO_TOKEN: token, MY_THING: 'shell-override-1' })
  try {
    const config = await writeLoopConfig(box.root, server.baseUrl)
    await mkdir(box.tackHome, { recursive: true })
    await copyFile(config, join(box.tackHome, 'config.yml'))
    await writeFile(join(box.tackHome, '.env'), `MY_THING=${fileValue}\n`)
    // the secret sits past the 60-72 characters the one-line listings keep
    const prompt = `${'x'.repeat(50)} ${token} tail`
    const run = await runTack(['run', '--json', '--model', 'loop/m', prompt], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(run.code, run.stderr).toBe(0)
    const id = (jsonLines(run.stdout).at(-1) as { sessionId: string }).sessionId
    const commands = [
      ['sessions', 'list'],
      ['sessions', 'list', '--json'],
      ['sessions', 'show', id],
      ['sessions', 'export', id],
      ['sessions', 'export', id, '--format', 'markdown'],
      ['rewind', '--resume', id],
    ]
    for (const args of commands) {
      const out = await runTack(args, { env: box.env, cwd: box.workspace })
      expect(out.code, `${args.join(' ')}: ${out.stderr}`).toBe(0)
      const text = out.stdout + out.stderr
      expect(text, args.join(' ')).not.toContain('Sup3r') // nor a cut part of it
      expect(text, args.join(' ')).not.toContain(fileValue)
    }
    expect(run.stdout).not.toContain('Sup3r')
  } finally {
    await server.close()
  }
})

test('an ambiguous id lists first prompts redacted before they are cut: no part of a key shows', async () => {
  const token = 'zq7v-tokenvalue-0123456789abcdef'
  const box = await sandbox({ DEPLOY_TOKEN: token })
  // the key starts at code point 53: the list's 60-code-point cut goes through it
  const prompt = `please deploy with the token that I paste here now: ${token} and then stop`
  for (const id of ['dup-1111', 'dup-2222']) {
    const header = { version: 1, id, createdAt: '2026-01-01T00:00:00.000Z', cwd: box.workspace }
    const message = {
      type: 'user/message',
      seq: 0,
      time: '2026-01-01T00:00:00.000Z',
      data: { content: [{ type: 'text', text: prompt }], source: { kind: 'user' } },
    }
    const imported = await runTack(['sessions', 'import', '-'], {
      env: box.env,
      cwd: box.workspace,
      input: `${JSON.stringify({ type: 'session/header', header })}\n${JSON.stringify(message)}\n`,
    })
    expect(imported.code, imported.stderr).toBe(0)
  }
  for (const args of [
    ['sessions', 'show', 'dup'],
    ['run', '-r', 'dup', 'go on', '--model', 'loop/x'],
    ['rewind', '--resume', 'dup'],
  ]) {
    const out = await runTack(args, { env: box.env, cwd: box.workspace })
    expect(out.code, args.join(' ')).toBe(1)
    expect(out.stderr, args.join(' ')).toContain('is ambiguous')
    expect(out.stderr, args.join(' ')).toContain('now: [redact')
    expect(out.stderr, args.join(' ')).not.toContain('zq7v')
  }
})
