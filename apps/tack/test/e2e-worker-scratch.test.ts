// Where `tack worker` clones its jobs (docs/decisions/0390-worker-scratch-outside-temp.md): by default in
// the person's cache folder, which a job's sandboxed commands may read but not write, so one job cannot
// change another's checkout (docs/decisions/0375-fleet-probe.md). Through the real binary on a throw-away
// PostgreSQL, the model on the loopback server: a job's `bash` writes its own checkout but not the folder
// of its siblings; a --scratch inside a temp folder still runs, with one line saying what it opens.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { getJob, openFleet } from '@tack/fleet'
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

/** What the job's command did, as the model read it: its own file written, the siblings' folder not. */
const PROBE =
  'touch mine && echo OWN-WRITTEN; touch ../sibling-probe 2>/dev/null && echo SIBLING-WRITTEN || echo SIBLING-REFUSED'

test("by default a job's sandboxed commands cannot write beside its checkout; a --scratch in a temp folder is named on stderr", async () => {
  // A cache folder outside every temp folder, as a person's ~/.cache is (the test's HOME is in /tmp).
  const cache = await mkdtemp('/var/tmp/tack-worker-cache-')
  const url = await cluster.createDatabase()
  const box = await sandbox({ TACK_STORE_URL: url, XDG_CACHE_HOME: cache })
  const repo = await jobRepo(box)
  const server = await startLoopbackServer({
    script: [
      { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: PROBE } }] },
      { kind: 'text', text: 'probed' },
    ],
  })
  const config = join(box.root, 'fleet.yml')
  await writeFile(
    config,
    `plugins:\n  fleet: { leaseCheckMs: 200, pollIntervalMs: 100 }\n  llm:\n    endpoints:\n      loop: { kind: openai-compatible, baseUrl: "${server.baseUrl}" }\n`,
  )
  const fleet = await openFleet(url)
  const worker = spawn(process.execPath, [TACK_BIN, 'worker', '--name', 'wc', '--config', config], {
    env: box.env,
    cwd: box.root,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const exited = outcomeOf(worker)
  try {
    const submitted = await runTack(['jobs', 'submit', 'probe', '--repo', repo, '--model', 'loop/m'], {
      env: box.env,
      cwd: box.root,
    })
    expect(submitted.code, submitted.stderr).toBe(0)
    const id = submitted.stdout.trim()
    const end = Date.now() + 30_000
    let job = await getJob(fleet, id)
    while (job.state !== 'done' && job.state !== 'failed' && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 100))
      job = await getJob(fleet, id)
    }
    expect(job.state, JSON.stringify(job)).toBe('done')
    // what the command printed, as the model read it in the next request
    const messages = (server.requests[1]?.body as { messages?: { role: string; content: unknown }[] })
      ?.messages
    const result = String(messages?.find((m) => m.role === 'tool')?.content)
    // the job's own checkout is writable (the command ran), the folder of its siblings is not
    expect(result).toBe('OWN-WRITTEN\nSIBLING-REFUSED')
    // the checkouts were made in the cache folder, and nothing was written beside them
    const workers = await readdir(join(cache, 'tack-worker'))
    expect(workers).toEqual(['worker-wc'])
    expect(existsSync(join(cache, 'tack-worker', 'worker-wc', 'sibling-probe'))).toBe(false)
  } finally {
    if (worker.exitCode === null) worker.kill('SIGTERM')
    const out = await exited
    await fleet.close()
    await server.close()
    await rm(cache, { recursive: true, force: true })
    expect(out.code, out.stderr).toBe(0)
    expect(out.stderr).not.toContain('scratch folder')
  }
  // A scratch folder in a temp folder is allowed, and said once at start.
  const inTemp = spawn(
    process.execPath,
    [TACK_BIN, 'worker', '--name', 'wt', '--config', config, '--scratch', join(box.root, 'scratch')],
    { env: box.env, cwd: box.root, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  const inTempExited = outcomeOf(inTemp)
  let stderr = ''
  const giveUp = setTimeout(() => inTemp.kill('SIGTERM'), 15_000)
  inTemp.stderr?.on('data', (d: string | Buffer) => {
    stderr += String(d)
    if (stderr.includes('scratch folder')) inTemp.kill('SIGTERM')
  })
  const out = await inTempExited
  clearTimeout(giveUp)
  expect(out.stderr).toMatch(
    /tack worker wt: the scratch folder \S+ is inside \/tmp, which every job's sandboxed commands can write/,
  )
}, 90_000)
