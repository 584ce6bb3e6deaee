// A cloned repository's files reach the user's terminal inside tack's messages (the untrusted notice
// names the config keys it ignored; a config error names the bad key). An escape sequence hidden in a
// YAML key must be shown, not obeyed: here an OSC sequence that would retitle the terminal window.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { startLoopbackServer } from '@tack/llm/testing'
import { describe, expect, it } from 'vitest'
import { printable } from '../src/printable.ts'
import { runOnLoop, runTack, sandbox, writeJson } from './helpers.ts'

const EVIL_KEY = '"evil\\e]0;pwned\\a": 1\n' // YAML double quotes: \e is ESC, \a is BEL
/** An OSC sequence that would retitle the terminal window, and how tack shows it. */
const OSC = '\x1b]0;pwned\x07'
const SHOWN = '\\x1b]0;pwned\\x07'
const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/
const BIDI = /[\u202a-\u202e\u2066-\u2069]/

describe('text from a hostile repository reaches the terminal escaped', () => {
  it('printable shows control characters (U+0000 to U+009F) as \\xNN and keeps newlines, tabs and unicode', () => {
    expect(printable('a\x1b]0;t\x07b\x9bc\td\ne — é')).toBe('a\\x1b]0;t\\x07b\\x9bc\td\ne — é')
  })

  it('printable shows bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069) as \\uNNNN', () => {
    expect(printable('abc \u202e gnp.exe \u2066x\u2069')).toBe('abc \\u202e gnp.exe \\u2066x\\u2069')
  })

  it('a project skill whose description reorders text: tack skills list and show, and /skills, show it escaped', async () => {
    const box = await sandbox()
    const dir = join(box.workspace, '.claude', 'skills', 'rtl')
    await mkdir(dir, { recursive: true })
    await writeFile(join(dir, 'SKILL.md'), '---\nname: rtl\ndescription: "abc \u202e gnp.exe"\n---\nbody\n')
    const shown = 'abc \\u202e gnp.exe'
    for (const args of [
      ['skills', 'list'],
      ['skills', 'show', 'rtl'],
      ['run', '--model', 'scripted/none', '/skills'],
    ]) {
      const r = await runTack(args, { env: box.env, cwd: box.workspace })
      expect(r.stdout).toContain(shown)
      expect(r.stdout + r.stderr).not.toMatch(BIDI)
    }
  })

  it('the untrusted notice and a trusted config error carry no raw control character', async () => {
    const box = await sandbox()
    await mkdir(join(box.workspace, '.tack'))
    await writeFile(join(box.workspace, '.tack', 'config.yml'), EVIL_KEY)
    const untrusted = await runTack(['run', '--model', 'scripted/none', 'hi'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(untrusted.stderr).toContain('evil\\x1b]0;pwned\\x07')
    expect(untrusted.stderr).not.toMatch(/[\x07\x1b]/)
    const trusted = await runTack(['run', '--trust', '--model', 'scripted/none', 'hi'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(trusted.code).toBe(2)
    expect(trusted.stderr).toContain('evil\\x1b]0;pwned\\x07: unknown key')
    expect(trusted.stderr).not.toMatch(/[\x07\x1b]/)
  })
})

describe('hook, tool, session and report text is shown escaped', () => {
  it('hook stderr and systemMessage, a tool call line, a hook list and a session list carry no raw control character', async () => {
    const box = await sandbox()
    await mkdir(join(box.home, '.claude'))
    const failing = `printf 'bad${OSC}' >&2; exit 1`
    await writeJson(join(box.home, '.claude', 'settings.json'), {
      hooks: {
        SessionStart: [{ hooks: [{ type: 'command', command: failing }] }],
        UserPromptSubmit: [
          {
            hooks: [
              {
                type: 'command',
                command: `echo '${JSON.stringify({ systemMessage: 'sys\u001b]0;pwned\u0007' })}'`,
              },
            ],
          },
        ],
      },
    })
    const server = await startLoopbackServer({
      script: [
        { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: `true '${OSC}'` } }] },
        { kind: 'text', text: 'done' },
      ],
    })
    try {
      const run = await runOnLoop(box, server.baseUrl, ['--model', 'loop/m', `title\x9b2J${OSC}`])
      expect(run.code).toBe(0)
      expect(run.stderr).toContain(`bad${SHOWN}`) // the failing hook's stderr, in its warning
      expect(run.stderr).toContain(`sys${SHOWN}`) // the systemMessage
      expect(run.stderr).toContain(`true '${SHOWN}'`) // the tool call's progress line
      expect(run.stderr).not.toMatch(RAW_CONTROL)
    } finally {
      await server.close()
    }
    const hooks = await runTack(['hooks', 'list'], { env: box.env, cwd: box.workspace })
    expect(hooks.stdout).toContain(`printf 'bad${SHOWN}'`)
    expect(hooks.stdout).not.toMatch(RAW_CONTROL)
    const sessions = await runTack(['sessions', 'list'], { env: box.env, cwd: box.workspace })
    expect(sessions.stdout).toContain('title\\x9b2J') // a C1 control, which JSON quoting lets through
    expect(sessions.stdout).not.toMatch(RAW_CONTROL)
  })

  it('a workspace folder named with an escape sequence: doctor, trust --list and /help show it escaped', async () => {
    const box = await sandbox()
    const evil = join(box.root, `ws${OSC}`)
    await mkdir(evil)
    await writeFile(join(evil, 'AGENTS.md'), '# rules\n')
    await mkdir(join(box.tackHome, 'plugins'), { recursive: true })
    await writeFile(
      join(box.tackHome, 'plugins', 'named.mjs'),
      // the file's JS string holds \\x1b and \\x07 escapes: the registered description holds ESC and BEL
      `export const name = 'named'\nexport function apply(ctx) {\n  ctx.get('commands').register({ name: 'evil', description: 'says ${SHOWN}', run: () => ({ kind: 'text', text: 'ran' }) })\n}\n`,
    )
    const doctor = await runTack(['doctor', '--model', 'scripted/none'], { env: box.env, cwd: evil })
    expect(doctor.stdout).toContain(`ws${SHOWN}/AGENTS.md`) // the instruction file's path
    expect(doctor.stdout).not.toMatch(RAW_CONTROL)
    const trust = await runTack(['trust', evil], { env: box.env, cwd: box.root })
    expect(trust.stdout).toContain(`trusted: ${box.root}/ws${SHOWN} — `)
    expect(trust.stdout).not.toMatch(RAW_CONTROL)
    const trusted = await runTack(['trust', '--list'], { env: box.env, cwd: box.root })
    expect(trusted.stdout).toContain(`ws${SHOWN}`)
    expect(trusted.stdout).not.toMatch(RAW_CONTROL)
    const help = await runTack(['run', '--model', 'scripted/none', '/help'], { env: box.env, cwd: evil })
    expect(help.stdout).toContain(`says ${SHOWN}`)
    expect(help.stdout).not.toMatch(RAW_CONTROL)
  })
})
