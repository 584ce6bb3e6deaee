// Through the real binary: `plugins.store.dataDir` / `path` decide the session file that a run, `tack
// sessions list` and `tack doctor` all name (one function computes it: src/session-store-file.ts), and
// `plugins.hooksClaude.dataDir` moves the bridge's files (transcripts) but never workspace trust, which
// stays in $TACK_HOME where `tack trust` writes it (docs/decisions/0013-workspace-trust.md).
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { trustWorkspace } from '@tack/kernel/workspace-trust'
import { describe, expect, test } from 'vitest'
import { runTack, type Sandbox, sandbox, scriptedModel, textAnswers } from './helpers.ts'

async function config(box: Sandbox, yaml: string): Promise<string> {
  const file = join(box.root, `config-${Math.random().toString(36).slice(2)}.yml`)
  await writeFile(file, yaml)
  return file
}

/** `tack run --config <cfg> [flags] --model <scripted entries> <prompt>` in the box's workspace. */
async function runScripted(
  box: Sandbox,
  cfg: string,
  entries: readonly unknown[],
  prompt: string,
  flags: string[] = [],
) {
  const model = await scriptedModel(box.root, entries)
  return runTack(['run', ...flags, '--config', cfg, '--model', model, prompt], {
    env: box.env,
    cwd: box.workspace,
  })
}

const doctorStoreLine = (stdout: string) => stdout.split('\n').find((l) => l.startsWith('session store'))

describe('plugins.store.dataDir', () => {
  test('SL-28 dataDir alone: sessions.db is made there (not in $TACK_HOME); sessions list and doctor use it', async () => {
    const box = await sandbox()
    const dataDir = join(box.root, 'data', 'dd')
    const cfg = await config(box, `plugins:\n  store: { dataDir: "${dataDir}" }\n`)
    const run = await runScripted(box, cfg, textAnswers('stored'), 'remember me')
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(existsSync(join(dataDir, 'sessions.db'))).toBe(true)
    expect(existsSync(join(box.tackHome, 'sessions.db'))).toBe(false)

    const list = await runTack(['sessions', 'list', '--config', cfg], { env: box.env, cwd: box.workspace })
    expect(list.code).toBe(0)
    expect(list.stdout).toContain('remember me')
    // without the setting, the default store in $TACK_HOME knows nothing of that session
    const plain = await runTack(['sessions', 'list'], { env: box.env, cwd: box.workspace })
    expect(plain.stdout).not.toContain('remember me')

    const doctor = await runTack(['doctor', '--config', cfg, '--model', 'local/m'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(doctorStoreLine(doctor.stdout)).toMatch(
      new RegExp(`^session store +${join(dataDir, 'sessions.db')} \\(\\d`),
    )
  })

  test('SL-28 dataDir with a relative path: the run, sessions list and doctor all name <dataDir>/<path>', async () => {
    const box = await sandbox()
    const dataDir = join(box.root, 'dd2')
    const db = join(dataDir, 'custom.db')
    const cfg = await config(box, `plugins:\n  store: { dataDir: "${dataDir}", path: custom.db }\n`)
    const doctorBefore = await runTack(['doctor', '--config', cfg, '--model', 'local/m'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(doctorStoreLine(doctorBefore.stdout)).toBe(`session store    ${db} (not created yet)`)
    const run = await runScripted(box, cfg, textAnswers('ok'), 'custom file')
    expect(run.code).toBe(0)
    expect(existsSync(db)).toBe(true)
    const list = await runTack(['sessions', 'list', '--config', cfg], { env: box.env, cwd: box.workspace })
    expect(list.stdout).toContain('custom file')
    const doctor = await runTack(['doctor', '--config', cfg, '--model', 'local/m'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(doctorStoreLine(doctor.stdout)).toMatch(new RegExp(`^session store +${db} \\(\\d`))
  })

  test('9.3 a store moved out of $TACK_HOME is hidden from sandboxed bash like $TACK_HOME itself', async () => {
    const box = await sandbox()
    const dataDir = join(box.root, 'moved-store')
    const db = join(dataDir, 'sessions.db')
    const cfg = await config(box, `plugins:\n  store: { dataDir: "${dataDir}" }\n`)
    const run = await runScripted(
      box,
      cfg,
      [
        {
          kind: 'tool-calls',
          calls: [{ name: 'bash', args: { command: `head -c 15 '${db}'; echo; echo probe-end` } }],
        },
        { kind: 'text', text: 'done' },
      ],
      'read the store',
      ['--json'],
    )
    expect(run.code).toBe(0)
    expect(readFileSync(db).subarray(0, 15).toString()).toBe('SQLite format 3') // there on the host
    expect(run.stdout).toContain('probe-end')
    expect(run.stdout).not.toContain('SQLite format 3') // but not to bash
  })

  test('SL-28 a dataDir that cannot be made (under /proc, or below a file): one line naming it, exit 2, no hang', async () => {
    const box = await sandbox()
    const file = join(box.root, 'a-file')
    await writeFile(file, 'x')
    for (const [dataDir, why] of [
      ['/proc/tack-no-such-folder', 'this file system does not allow new folders there'],
      [file, 'is not a folder'],
    ]) {
      const cfg = await config(box, `plugins:\n  store: { dataDir: "${dataDir}" }\n`)
      const run = await runScripted(box, cfg, textAnswers('never'), 'hi')
      expect(run.code).toBe(2)
      expect(run.stderr).toContain(`tack: STORE_OPEN_FAILED: the session store's folder ${dataDir}`)
      expect(run.stderr).toContain(why)
      expect(run.stderr).toContain('set plugins.store.dataDir (or path) to a folder you can write')
      expect(run.stderr).not.toMatch(/^\s+at /m) // no stack trace
    }
  })

  test('SL-28 without store settings doctor names $TACK_HOME/sessions.db, the file a run makes', async () => {
    const box = await sandbox()
    const model = await scriptedModel(box.root, textAnswers('ok'))
    await runTack(['run', '--model', model, 'hi'], { env: box.env, cwd: box.workspace })
    const doctor = await runTack(['doctor', '--model', 'local/m'], { env: box.env, cwd: box.workspace })
    expect(doctorStoreLine(doctor.stdout)).toMatch(
      new RegExp(`^session store +${join(box.tackHome, 'sessions.db')} \\(\\d`),
    )
  })
})

describe('plugins.hooksClaude.dataDir', () => {
  /** A UserPromptSubmit hook that appends its payload (one JSON line) to `out`. */
  const capture = (out: string) => ({
    hooks: {
      UserPromptSubmit: [{ hooks: [{ type: 'command', command: `cat >> '${out}'; echo >> '${out}'` }] }],
    },
  })
  const payloads = (file: string) =>
    existsSync(file)
      ? readFileSync(file, 'utf8')
          .split('\n')
          .filter((l) => l.trim())
          .map((l) => JSON.parse(l) as { transcript_path: string })
      : []

  /** A sandbox whose user-level (`home`) or project-level (`workspace`) Claude settings hold the capture hook. */
  async function hookBox(level: 'home' | 'workspace') {
    const box = await sandbox()
    const out = join(box.root, `${level}-hook.jsonl`)
    await mkdir(join(box[level], '.claude'), { recursive: true })
    await writeFile(join(box[level], '.claude', 'settings.json'), JSON.stringify(capture(out)))
    return { box, out, dataDir: join(box.root, 'hooks-data') }
  }

  test('B9 transcript_path is under <dataDir>/claude-transcripts, not $TACK_HOME', async () => {
    const { box, out, dataDir } = await hookBox('home')
    const cfg = await config(box, `plugins:\n  hooksClaude: { dataDir: "${dataDir}" }\n`)
    const run = await runScripted(box, cfg, textAnswers('ok'), 'hello')
    expect(run.code).toBe(0)
    const [payload] = payloads(out)
    expect(payload?.transcript_path.startsWith(join(dataDir, 'claude-transcripts') + '/')).toBe(true)
    expect(existsSync(join(box.tackHome, 'claude-transcripts'))).toBe(false)
  })

  test('B1 workspace trust stays in $TACK_HOME: a trust file under dataDir does not trust, tack trust does', async () => {
    const { box, out, dataDir } = await hookBox('workspace')
    // even a user config naming the data folder as the bridge's tackHome: the CLI pins it to $TACK_HOME
    const cfg = await config(
      box,
      `plugins:\n  hooksClaude: { dataDir: "${dataDir}", tackHome: "${dataDir}" }\n`,
    )
    const run = async () => {
      return runScripted(box, cfg, textAnswers('ok'), 'hello')
    }
    // a trust store planted in the bridge's data folder is not read
    await mkdir(dataDir, { recursive: true })
    trustWorkspace(box.workspace, dataDir)
    expect((await run()).code).toBe(0)
    expect(payloads(out)).toEqual([])
    const listed = await runTack(['hooks', 'list', '--config', cfg], { env: box.env, cwd: box.workspace })
    expect(listed.stdout).toMatch(/not trusted/)

    expect((await runTack(['trust'], { env: box.env, cwd: box.workspace })).code).toBe(0)
    expect((await run()).code).toBe(0)
    expect(payloads(out)).toHaveLength(1)
    expect(payloads(out)[0]?.transcript_path.startsWith(join(dataDir, 'claude-transcripts') + '/')).toBe(true)
  })
})
