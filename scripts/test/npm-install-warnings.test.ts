// `npm install` in this repository prints no wall of warnings, on the system's own Node and npm (20 on
// the machines the README names): the EBADENGINE lines judged packages against the Node running npm, not
// the Node 24 the repository runs everything on (issue 26; docs/decisions/0320-small-things.md).
import { spawnSync } from 'node:child_process'
import { expect, test } from 'vitest'
import { ROOT } from '../build.ts'

test('npm install (dry run) with the system npm and node prints no npm warning', () => {
  // the PATH without the repository's folders: `npm` and the `node` it runs on are the system's
  const path = (process.env.PATH ?? '')
    .split(':')
    .filter((dir) => dir && !dir.startsWith(ROOT))
    .join(':')
  const system = spawnSync('node', ['--version'], { env: { PATH: path }, encoding: 'utf8' })
  expect(system.status, 'a system node and npm on PATH').toBe(0)
  const r = spawnSync('npm', ['install', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund'], {
    cwd: ROOT,
    env: { PATH: path, HOME: process.env.HOME },
    encoding: 'utf8',
    timeout: 120_000,
  })
  expect(r.status, r.stderr).toBe(0)
  expect(`${r.stdout}${r.stderr}`.split('\n').filter((l) => l.startsWith('npm warn'))).toEqual([])
}, 130_000)
