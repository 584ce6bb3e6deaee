// A cloned repository's AGENTS.md / CLAUDE.md symlinked to a file outside it (`~/.aws/credentials`) is not
// read, logged or sent to the model; a warning on stderr and in `tack doctor` names it
// (docs/decisions/0021-project-instructions.md). Through the real binary, against a loopback model.
import { execFileSync } from 'node:child_process'
import { mkdir, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { startLoopbackServer } from '@tack/llm/testing'
import { expect, test } from 'vitest'
import { runOnLoop, runTack, sandbox, writeLoopConfig } from './helpers.ts'

const CANARY = 'aws_secret_access_key = CANARY-7f3a91'

test('an instruction file leading outside the repository is skipped with a warning, never sent', async () => {
  const server = await startLoopbackServer({ script: [{ kind: 'text', text: 'hi' }] })
  const box = await sandbox()
  try {
    const ws = box.workspace
    execFileSync('git', ['init', '-q'], { cwd: ws })
    const credentials = join(box.home, '.aws', 'credentials')
    await mkdir(join(box.home, '.aws'))
    await writeFile(credentials, `[default]\n${CANARY}\n`)
    await symlink(credentials, join(ws, 'AGENTS.md'))
    await writeFile(join(ws, 'CLAUDE.md'), 'Use tabs.\n')

    const run = await runOnLoop(box, server.baseUrl, ['--json', '--model', 'loop/m', 'x'])
    expect(run.code).toBe(0)
    expect(run.stdout).not.toContain('CANARY')
    expect(JSON.stringify(server.requests.map((r) => r.body))).not.toContain('CANARY')
    expect(JSON.stringify(server.requests.map((r) => r.body))).toContain('Use tabs.')
    const warning = `tack: instructions: skipped ${join(ws, 'AGENTS.md')}: it leads to ${credentials}, outside ${ws}`
    expect(run.stderr).toContain(warning)
    expect(run.stderr.split(warning)).toHaveLength(2) // said once

    const config = await writeLoopConfig(box.root, server.baseUrl)
    const doctor = await runTack(['doctor', '--config', config], { env: box.env, cwd: ws })
    expect(doctor.stdout).toContain(`skipped ${join(ws, 'AGENTS.md')}: it leads to ${credentials}`)
    expect(doctor.stdout).toContain(`${join(ws, 'CLAUDE.md')} (project`)
    expect(doctor.stdout).not.toContain('CANARY')
  } finally {
    await server.close()
  }
})
