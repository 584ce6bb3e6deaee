// A worker killed with SIGKILL cannot remove its job's checkout; the next worker started on the host
// removes it (docs/decisions/0405-worker-scratch-sweep.md). Through the real binary on a throw-away
// PostgreSQL, the model on the loopback server: worker `wa` is killed while its job's command runs, and
// worker `wb`, started on the same scratch folder, removes `worker-wa` and says so.
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { startLoopbackServer } from '@tack/llm/testing'
import { startThrowawayCluster, type ThrowawayCluster } from '@tack/store-postgres/testing'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { outcomeOf, runTack, sandbox, TACK_BIN } from './helpers.ts'
import { jobRepo } from './job-repo.ts'

let cluster: ThrowawayCluster
beforeAll(async () => {
  cluster = await startThrowawayCluster()
}, 60_000)
afterAll(() => cluster?.stop())

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

test("a SIGKILLed worker's checkout is removed by the next worker on the host", async () => {
  const url = await cluster.createDatabase()
  const box = await sandbox({ TACK_STORE_URL: url })
  const repo = await jobRepo(box)
  const server = await startLoopbackServer({
    script: [{ kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'sleep 60' } }] }],
  })
  const config = join(box.root, 'fleet.yml')
  await writeFile(
    config,
    `plugins:\n  fleet: { leaseCheckMs: 200, pollIntervalMs: 100 }\n  llm:\n    endpoints:\n      loop: { kind: openai-compatible, baseUrl: "${server.baseUrl}" }\n`,
  )
  const scratch = join(box.root, 'scratch')
  const start = (name: string): ChildProcess =>
    spawn(process.execPath, [TACK_BIN, 'worker', '--name', name, '--config', config, '--scratch', scratch], {
      env: box.env,
      cwd: box.root,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
  const wa = start('wa')
  const waExited = outcomeOf(wa)
  let wb: ChildProcess | undefined
  try {
    const submitted = await runTack(['jobs', 'submit', 'wait', '--repo', repo, '--model', 'loop/m'], {
      env: box.env,
      cwd: box.root,
    })
    expect(submitted.code, submitted.stderr).toBe(0)
    const folder = join(scratch, 'worker-wa')
    // the model asked for the command: the checkout exists and the job is running
    await until('the job to run', () => server.requests.length > 0)
    const checkouts = (await readdir(folder)).filter((n) => n !== 'owner.json')
    expect(checkouts).toHaveLength(1)
    wa.kill('SIGKILL')
    expect((await waExited).signal).toBe('SIGKILL')
    expect(existsSync(join(folder, checkouts[0]))).toBe(true)

    wb = start('wb')
    let stderr = ''
    wb.stderr?.on('data', (d: string | Buffer) => {
      stderr += String(d)
    })
    // it says so as it starts taking jobs
    await until('wb to remove the folder', () => stderr.includes(`removed ${folder}`))
    expect(stderr).toContain(
      `tack worker: removed ${folder}, left by a worker that is gone (process ${wa.pid})`,
    )
    expect(existsSync(folder)).toBe(false)
    expect(await readdir(scratch)).toEqual(['worker-wb'])
  } finally {
    if (wa.exitCode === null && wa.signalCode === null) wa.kill('SIGKILL')
    if (wb) {
      const wbExited = outcomeOf(wb)
      wb.kill('SIGTERM')
      await wbExited
    }
    await server.close()
  }
}, 90_000)
