// A worker's scratch folder names its owner, so what a killed worker left is removed by the next one on
// the host (packages/fleet/src/scratch-owner.ts, docs/decisions/0405-worker-scratch-sweep.md): with real
// processes, a gone one's folders go, a live one's, another host's and an unrecorded one stay.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { claimScratch, releaseScratch } from '../src/scratch-owner.ts'

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c()
})

/** The pid of a process that has exited (and so no longer exists). */
async function goneProcess(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' })
  await new Promise((resolve) => child.on('exit', resolve))
  return child.pid as number
}

function liveProcess(): number {
  const child = spawn('sleep', ['60'], { stdio: 'ignore' })
  cleanups.push(async () => child.kill('SIGKILL'))
  return child.pid as number
}

async function workerFolder(base: string, name: string, owner?: { host: string; pid: number }) {
  const folder = join(base, `worker-${name}`)
  await mkdir(join(folder, 'job-1'), { recursive: true })
  await writeFile(join(folder, 'job-1', 'file.txt'), 'a checkout\n')
  if (owner) await writeFile(join(folder, 'owner.json'), JSON.stringify(owner))
  return folder
}

test("a gone worker's folders are removed, its own name's included; live, other hosts' and unrecorded ones stay", async () => {
  const base = await mkdtemp(join(tmpdir(), 'tack-scratch-owner-'))
  cleanups.push(() => rm(base, { recursive: true, force: true }))
  const host = hostname()
  const gone = await goneProcess()
  const mine = await workerFolder(base, 'me', { host, pid: gone })
  const dead = await workerFolder(base, 'dead', { host, pid: gone })
  const live = await workerFolder(base, 'live', { host, pid: liveProcess() })
  const elsewhere = await workerFolder(base, 'elsewhere', { host: `${host}-other`, pid: gone })
  const unrecorded = await workerFolder(base, 'old')
  const notAWorker = join(base, 'notes')
  await mkdir(notAWorker)

  const said = await claimScratch(mine)
  expect(said).toEqual([`removed ${dead}, left by a worker that is gone (process ${gone})`])
  expect(existsSync(dead)).toBe(false)
  // this worker's own folder: the dead namesake's checkout is gone, this process is recorded
  expect(existsSync(join(mine, 'job-1'))).toBe(false)
  expect(JSON.parse(await readFile(join(mine, 'owner.json'), 'utf8'))).toEqual({ host, pid: process.pid })
  for (const kept of [live, elsewhere, unrecorded])
    expect(existsSync(join(kept, 'job-1', 'file.txt'))).toBe(true)
  expect(existsSync(notAWorker)).toBe(true)
  // a clean stop withdraws the record; another worker's is never touched
  await releaseScratch(mine)
  await releaseScratch(live)
  expect(existsSync(join(mine, 'owner.json'))).toBe(false)
  expect(existsSync(join(live, 'owner.json'))).toBe(true)
})

test("a folder recorded by this very pid under another name is a former worker's (a container restarted with the same pid)", async () => {
  const base = await mkdtemp(join(tmpdir(), 'tack-scratch-owner-'))
  cleanups.push(() => rm(base, { recursive: true, force: true }))
  const former = await workerFolder(base, 'before-restart', { host: hostname(), pid: process.pid })
  const said = await claimScratch(join(base, 'worker-after-restart'))
  expect(said).toEqual([`removed ${former}, left by a worker that is gone (process ${process.pid})`])
  expect(existsSync(former)).toBe(false)
})

test('a live worker of the same name keeps its checkouts, and the newcomer says the names collide', async () => {
  const base = await mkdtemp(join(tmpdir(), 'tack-scratch-owner-'))
  cleanups.push(() => rm(base, { recursive: true, force: true }))
  const pid = liveProcess()
  const shared = await workerFolder(base, 'same', { host: hostname(), pid })
  const said = await claimScratch(shared)
  expect(said).toHaveLength(1)
  expect(said[0]).toContain(`is also used by process ${pid}, a worker of the same name`)
  expect(existsSync(join(shared, 'job-1', 'file.txt'))).toBe(true)
})

test('a scratch folder that cannot be made is a line, not a failure', async () => {
  const base = await mkdtemp(join(tmpdir(), 'tack-scratch-owner-'))
  cleanups.push(() => rm(base, { recursive: true, force: true }))
  await writeFile(join(base, 'file'), '')
  const said = await claimScratch(join(base, 'file', 'worker-x'))
  expect(said).toHaveLength(1)
  expect(said[0]).toMatch(/^could not clear old checkouts: /)
})
