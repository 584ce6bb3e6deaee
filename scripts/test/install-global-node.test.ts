// `npm run install:global` under a Node older than tack needs refuses before packing or installing, and
// says how to get a newer one (issue 26; docs/decisions/0320-small-things.md). The script runs as npm runs
// it — on the repository's own Node — with a fake system `node` 20 first on PATH outside the repository.
import { spawnSync } from 'node:child_process'
import { chmodSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { expect, test } from 'vitest'
import { ROOT } from '../build.ts'

function runInstall(path: string, prefix: string) {
  return spawnSync(process.execPath, [join(ROOT, 'scripts', 'pack.ts'), '--install'], {
    cwd: ROOT,
    env: { PATH: path, HOME: prefix, npm_config_prefix: prefix },
    encoding: 'utf8',
    timeout: 30_000,
  })
}

test('a Node 20 first on PATH: nothing is packed or installed, and the message says how to get Node 24', () => {
  const root = mkdtempSync(join(tmpdir(), 'tack-old-node-'))
  const fake = join(root, 'node')
  writeFileSync(
    fake,
    '#!/bin/sh\ncase "$*" in --version) echo v20.11.1 ;; *process.versions.node*) echo 20.11.1 ;; *) exit 1 ;; esac\n',
  )
  chmodSync(fake, 0o755)
  const prefix = mkdtempSync(join(tmpdir(), 'tack-prefix-'))
  const r = runInstall(`${root}:${dirname(process.execPath)}:/usr/bin:/bin`, prefix)
  expect(r.status).toBe(1)
  expect(r.stdout).toBe('') // not even packed
  expect(r.stderr).toContain(`Node 20.11.1 (${fake}); tack needs Node 22.16+ or 24+`)
  expect(r.stderr).toContain('nvm install 24')
  expect(r.stderr).toContain('npm install -g node@24')
  expect(readdirSync(prefix)).toEqual([])
})

test('no node outside the repository at all: refused the same way', () => {
  const prefix = mkdtempSync(join(tmpdir(), 'tack-prefix-'))
  const r = runInstall(`${dirname(process.execPath)}:/nonexistent`, prefix)
  expect(r.status).toBe(1)
  expect(r.stderr).toContain('no `node` outside this repository; tack needs Node 22.16+ or 24+')
})
