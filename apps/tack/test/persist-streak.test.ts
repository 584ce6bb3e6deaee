// A full disk under an interactive session: every turn fails to persist until space is freed. The
// warning comes once for the streak and once when writes work again, and nothing is lost: the events
// held in memory meanwhile are all stored by the flush that works. The disk is a real 1 MiB tmpfs
// (mounting it needs root, as in store-failures.test.ts). Run `node scripts/build.ts` first.
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { runTack } from './helpers.ts'
import { bashCall, closeAllTuis, openTui, submit } from './pty/tui-session.ts'

const disks: string[] = []
afterEach(async () => {
  await closeAllTuis()
  for (const disk of disks.splice(0)) spawnSync('umount', ['-l', disk])
})

/** A mounted 1 MiB tmpfs holding `$TACK_HOME` (bash unsandboxed: its placeholder records live there too). */
function smallDisk(): { disk: string; home: string } {
  const disk = mkdtempSync(join(tmpdir(), 'tack-disk-'))
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', disk]).status === 0
  expect(mounted, 'mounting a tmpfs needs root').toBe(true)
  disks.push(disk)
  const home = join(disk, 'home')
  mkdirSync(home, { mode: 0o700 })
  writeFileSync(join(home, 'config.yml'), 'plugins:\n  bash:\n    sandbox: "off"\n')
  return { disk, home }
}

const STREAK = /tack: agent: could not persist/g

test('a full disk warns once per failure streak and once on recovery; later flushes store everything', async () => {
  const { disk, home } = smallDisk()
  const filler = join(disk, 'filler')
  // Node's compile cache (docs/decisions/0325-start-up-steps.md) would go under $TACK_HOME, on this 1 MiB
  // disk; it is kept off it, so the disk fills where the test says.
  const compileCache = join(tmpdir(), `tack-persist-streak-cache-${process.pid}`)
  const { term, box } = await openTui(
    [
      bashCall(`head -c 4000000 /dev/zero > '${filler}'; echo filled`),
      { kind: 'text', text: 'answer one' },
      { kind: 'text', text: 'answer two' },
      { kind: 'text', text: 'answer three' },
    ],
    {
      env: { TACK_HOME: home, NODE_COMPILE_CACHE: compileCache },
      args: ['--permission-mode', 'yolo'],
      rows: 60,
    },
  )
  await submit(term, 'fill the disk')
  const turnFailed = 'error: could not persist the session'
  await term.waitFor(turnFailed, 30_000)
  await submit(term, 'still full')
  // each turn still says it failed; the warning is not repeated
  await term.waitFor(new RegExp(`${turnFailed}[\\s\\S]*${turnFailed}`), 30_000)
  expect(term.allText().replace(/\n/g, '').match(STREAK)).toHaveLength(1)
  rmSync(filler)
  await submit(term, 'space again')
  await term.waitFor('persists again', 30_000)
  expect(term.allText().replace(/\n/g, '').match(STREAK)).toHaveLength(1)
  await term.close()
  // every prompt typed while the disk was full is in the store
  const env = { ...box.env, TACK_HOME: home, NODE_COMPILE_CACHE: compileCache }
  const [session] = JSON.parse(
    (await runTack(['sessions', 'list', '--json'], { env, cwd: box.workspace })).stdout,
  )
  const shown = await runTack(['sessions', 'show', session.id], { env, cwd: box.workspace })
  for (const prompt of ['fill the disk', 'still full', 'space again']) expect(shown.stdout).toContain(prompt)
}, 120_000)
