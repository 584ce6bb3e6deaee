import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { NODE, PACKAGE_ROOT, tempDir } from './helpers.ts'

describe('R1 published tarball', () => {
  it('R1 after npm pack into a temp prefix, both bins print the same usage on plain Node with no Bun on PATH', () => {
    // Packed from a copy, so the prepack rewrite of package.json never touches the workspace.
    const work = tempDir()
    const copy = join(work, 'agent-dice')
    mkdirSync(copy)
    for (const entry of ['bin', 'hooks', 'src', 'scripts', 'schema', 'package.json', 'README.md']) {
      cpSync(join(PACKAGE_ROOT, entry), join(copy, entry), { recursive: true })
    }
    // Its one dependency, installed as `npm install` leaves it, for `bundleDependencies` to carry.
    const tackHome = dirname(fileURLToPath(import.meta.resolve('tack-home/package.json')))
    cpSync(tackHome, join(copy, 'node_modules', 'tack-home'), { recursive: true })
    const npmEnv = { ...process.env, PATH: `${dirname(NODE)}:${process.env.PATH}` }
    const pack = spawnSync('npm', ['pack', '--pack-destination', work], {
      cwd: copy,
      env: npmEnv,
      encoding: 'utf8',
    })
    expect(pack.status, pack.stderr).toBe(0)
    const tarball = join(work, pack.stdout.trim().split('\n').at(-1)!)
    expect(JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8')).exports['.']).toBe('./src/index.ts')

    const prefix = join(work, 'prefix')
    const install = spawnSync(
      'npm',
      ['install', '-g', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', tarball],
      {
        env: npmEnv,
        encoding: 'utf8',
      },
    )
    expect(install.status, install.stderr).toBe(0)
    const installed = join(prefix, 'lib', 'node_modules', 'agent-dice')
    expect(JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')).exports['.']).toBe(
      './dist/index.js',
    )
    expect(existsSync(join(installed, 'src'))).toBe(false)
    expect(existsSync(join(installed, 'node_modules', 'tack-home', 'index.js'))).toBe(true)

    // Only Node and the installed bins on PATH: no Bun, no TypeScript stripping under node_modules.
    const env = { PATH: `${dirname(NODE)}:${join(prefix, 'bin')}`, HOME: tempDir() }
    const agentDice = spawnSync('agent-dice', ['--help'], { env, encoding: 'utf8' })
    const ccDice = spawnSync('cc-dice', ['--help'], { env, encoding: 'utf8' })
    expect(agentDice.status).toBe(0)
    expect(agentDice.stdout).toMatch(/^Usage: agent-dice <command> \[options\]\n/)
    expect(agentDice.stdout).toContain('\nEnvironment:\n')
    expect(ccDice.stdout).toBe(agentDice.stdout)
    expect(spawnSync('which', ['bun'], { env }).status).not.toBe(0)

    const hook = spawnSync(NODE, [join(installed, 'hooks', 'agent-dice-claude-stop.js')], {
      env,
      input: '{"session_id":"p1"}',
      encoding: 'utf8',
    })
    expect({ status: hook.status, stderr: hook.stderr }).toEqual({ status: 0, stderr: '' })
  }, 60_000)
})
