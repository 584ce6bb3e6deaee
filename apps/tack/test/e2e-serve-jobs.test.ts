// `tack serve` on a fleet database (95-fleet.md F5, docs/decisions/0360-web-view.md): with the sessions in
// PostgreSQL the jobs page reads the fleet's jobs in that database (apps/tack/src/commands/serve-jobs.ts),
// through the real binary: a job `tack jobs submit` queued is listed (in headless Chromium too) and shown,
// cancelled from the page's own kind of request, and a second cancel is refused as its state says (409).
import { type ChildProcess, spawn } from 'node:child_process'
import { startThrowawayCluster, type ThrowawayCluster } from '@tack/store-postgres/testing'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { launchChromium } from '../../../packages/web/test/chromium.ts'
import { outcomeOf, runTack, sandbox, TACK_BIN } from './helpers.ts'
import { jobRepo } from './job-repo.ts'

let cluster: ThrowawayCluster
beforeAll(async () => {
  cluster = await startThrowawayCluster()
}, 60_000)
afterAll(() => cluster?.stop())

test('the jobs of the sessions database are listed, shown, cancelled; a second cancel is 409', async () => {
  const url = await cluster.createDatabase()
  const box = await sandbox({ TACK_STORE_URL: url })
  const repo = await jobRepo(box)
  const submitted = await runTack(
    ['jobs', 'submit', 'rename the readme', '--repo', repo, '--label', 'team=web'],
    {
      env: box.env,
      cwd: box.root,
    },
  )
  expect(submitted.code, submitted.stderr).toBe(0)
  const id = submitted.stdout.trim()

  const child: ChildProcess = spawn(process.execPath, [TACK_BIN, 'serve', '--port', '0'], {
    env: box.env,
    cwd: box.workspace,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const outcome = outcomeOf(child)
  let stderr = ''
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()))
  try {
    const base = await new Promise<string>((resolve, reject) => {
      let out = ''
      child.stdout?.on('data', (d: Buffer) => {
        out += d.toString()
        const m = /http:\/\/\S+?\//.exec(out)
        if (m) resolve(m[0])
      })
      child.on('exit', () => reject(new Error(`tack serve exited: ${stderr}`)))
    })
    const table = (await (await fetch(`${base}api/jobs`)).json()) as {
      connected: boolean
      jobs: Array<{ id: string; state: string; task: string; labels?: Record<string, string> }>
    }
    expect(table.connected).toBe(true)
    expect(table.jobs).toEqual([
      expect.objectContaining({ id, state: 'queued', task: 'rename the readme', labels: { team: 'web' } }),
    ])
    // the page itself, in headless Chromium: the job's row with its task and state
    const browser = await launchChromium()
    try {
      const page = await browser.newPage()
      await page.goto(`${base}#/jobs`)
      const row = page.locator(`#jobs tr[data-job="${id}"]`)
      await row.waitFor()
      expect(await row.textContent()).toContain('rename the readme')
      expect(await row.textContent()).toContain('queued')
    } finally {
      await browser.close()
    }
    const detail = (await (await fetch(`${base}api/jobs/${id}`)).json()) as {
      id: string
      attempts: unknown[]
    }
    expect(detail).toMatchObject({ id, attempts: [] })
    expect((await fetch(`${base}api/jobs/00000000-0000-4000-8000-000000000000`)).status).toBe(404)

    const cancel = () =>
      fetch(`${base}api/jobs/${id}/cancel`, { method: 'POST', headers: { 'x-tack-action': '1' } })
    expect((await cancel()).status).toBe(200)
    const after = (await (await fetch(`${base}api/jobs/${id}`)).json()) as { state: string }
    expect(after.state).toBe('cancelled')
    const again = await cancel()
    expect(again.status).toBe(409)
    expect(await again.text()).toContain('already cancelled')
    expect(stderr).toContain("jobs from the fleet in the sessions' database")
    expect(stderr).not.toContain(cluster.password)
  } finally {
    child.kill('SIGTERM')
    expect((await outcome).code).toBe(0)
  }
}, 90_000)
