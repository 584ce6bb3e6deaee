// The page in a real headless Chromium (Debian's package, driven by playwright-core): it lists the
// sessions, shows a session's edit as a diff card, draws text from the log as text — a model-written
// `<script>` or `onerror` in a tool result or an answer never runs — follows an appended turn without a
// reload, and says plainly when jobs are not connected (docs/decisions/0360-web-view.md).
import { text } from '@tack/agent/testing'
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { JobSource } from '../src/jobs.ts'
import { startWebServer, type WebServer } from '../src/server.ts'
import { launchChromium } from './chromium.ts'
import { EDIT_SCRIPT, HOSTILE, type Recorded, recordSession } from './support.ts'

let recorded: Recorded
let browser: BrowserContext
let page: Page
let server: WebServer

beforeAll(async () => {
  recorded = await recordSession([...EDIT_SCRIPT, text('a later answer')], `change two ${HOSTILE}`)
  server = await startWebServer({
    store: recorded.store,
    projection: recorded.projection,
    host: '127.0.0.1',
    port: 0,
    pollMs: 50,
  })
  browser = await launchChromium()
  page = browser.pages()[0] ?? (await browser.newPage())
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
  await recorded?.close()
})

test('lists the sessions and opens one: the edit is a diff card with numbered removed and added lines', async () => {
  await page.goto(server.url)
  const row = page.locator(`#sessions tr[data-session="${recorded.sessionId}"]`)
  await row.waitFor()
  expect(await row.textContent()).toContain('change two')
  await row.locator('a').click()
  const diff = page.locator('.tool .diff').first()
  await diff.waitFor()
  expect(await diff.locator('.diff-path').textContent()).toBe('a.txt')
  expect(await diff.locator('tr.del td.t').allTextContents()).toEqual(['-two'])
  expect(await diff.locator('tr.add td.t').allTextContents()).toEqual(['+TWO'])
  expect(await diff.locator('tr.add td.n').allTextContents()).toEqual(['', '2'])
  expect(await page.locator('.meta').textContent()).toContain('$0.0050')
})

test('text from the log is drawn as text: the hostile markup shows, nothing of it runs or becomes an element', async () => {
  await page.locator('.tool pre.output').first().waitFor()
  expect(await page.locator('.tool pre.output').first().textContent()).toContain(HOSTILE)
  expect(await page.locator('.entry.user').first().textContent()).toBe(`change two ${HOSTILE}`)
  expect(await page.locator('.entry.assistant').last().textContent()).toContain(HOSTILE)
  expect(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined()
  expect(await page.locator('#main script, #main img').count()).toBe(0)
})

test('a turn appended to the log shows without a reload', async () => {
  await page.locator('.entry.user').first().waitFor()
  await recorded.send('one more thing')
  await page.locator('.entry.assistant', { hasText: 'a later answer' }).waitFor({ timeout: 10_000 })
  expect(await page.locator('.entry.user').allTextContents()).toEqual([
    `change two ${HOSTILE}`,
    'one more thing',
  ])
})

test('without a job source the jobs page says jobs are not connected', async () => {
  await page.goto(`${server.url}#/jobs`)
  await page.locator('#jobs-not-connected').waitFor()
  expect(await page.locator('#jobs-not-connected').textContent()).toContain('not connected')
})

test('with a job source the jobs page lists them with their state and session, as text', async () => {
  const jobs: JobSource = {
    listJobs: async () => [
      {
        id: 'job-1',
        state: 'done',
        task: `bump deps ${HOSTILE}`,
        repo: '/srv/a.git',
        createdAt: '2026-12-07T10:00:00Z',
        sessionId: recorded.sessionId,
        costUsd: 0.0123,
      },
    ],
    getJob: async () => undefined,
    cancel: async () => {},
    retry: async () => {},
  }
  const withJobs = await startWebServer({
    store: recorded.store,
    projection: recorded.projection,
    jobs,
    host: '127.0.0.1',
    port: 0,
    pollMs: 50,
  })
  try {
    await page.goto(`${withJobs.url}#/jobs`)
    const row = page.locator('#jobs tr[data-job="job-1"]')
    await row.waitFor()
    expect(await row.locator('.badge').textContent()).toBe('done')
    expect(await row.textContent()).toContain(HOSTILE)
    await row.locator(`a[href="#/session/${recorded.sessionId}"]`).click()
    await page.locator('.tool .diff').first().waitFor()
    expect(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined()
  } finally {
    await withJobs.close()
  }
})

test("a job's page: its diff, usage, cost and answer; Cancel goes through from the page itself", async () => {
  const cancelled: string[] = []
  const job = {
    id: 'job-2',
    state: 'active' as const,
    task: 'bump the version',
    repo: '/srv/b.git',
    createdAt: '2026-12-07T10:00:00Z',
    attempts: [{ attempt: 1, worker: 'w2', outcome: 'running', sessionId: recorded.sessionId }],
    usage: { inputTokens: 1500, outputTokens: 42 },
    costUsd: 0.0021,
    finalAnswer: `bumped ${HOSTILE}`,
    diff: 'diff --git a/v b/v\n--- a/v\n+++ b/v\n@@ -1 +1 @@\n-1.0.0\n+1.0.1\n',
  }
  const jobs: JobSource = {
    listJobs: async () => [job],
    getJob: async (id) => (id === job.id ? job : undefined),
    cancel: async (id) => void cancelled.push(id),
    retry: async () => {},
  }
  const withJobs = await startWebServer({
    store: recorded.store,
    projection: recorded.projection,
    jobs,
    host: '127.0.0.1',
    port: 0,
    pollMs: 50,
  })
  try {
    await page.goto(`${withJobs.url}#/job/job-2`)
    await page.locator('.diff tr.add').waitFor()
    expect(await page.locator('.diff tr.del').allTextContents()).toEqual(['-1.0.0'])
    expect(await page.locator('.diff tr.add').allTextContents()).toEqual(['+1.0.1'])
    const meta = await page.locator('.meta').textContent()
    expect(meta).toContain('1.5k in / 42 out')
    expect(meta).toContain('$0.0021')
    expect(await page.locator('#attempts').textContent()).toContain('running')
    expect(await page.locator('.panel').allTextContents()).toContain(`bumped ${HOSTILE}`)
    expect(await page.locator('button', { hasText: 'Retry' }).isDisabled()).toBe(true)
    await page.locator('button', { hasText: 'Cancel' }).click()
    await expect.poll(() => cancelled).toEqual(['job-2'])
    expect(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined()
  } finally {
    await withJobs.close()
  }
})

test('a fork is listed as a fork of its session, linked to it', async () => {
  const fork = await recorded.agent.ctx.sessions.fork(recorded.sessionId, {})
  await page.goto(server.url)
  const row = page.locator(`#sessions tr[data-session="${fork.id}"]`)
  await row.waitFor({ timeout: 5000 })
  expect(await row.textContent()).toContain(`fork of ${recorded.sessionId.slice(0, 12)}`)
  await row.locator('a').first().click()
  await page.locator('.meta', { hasText: 'fork of' }).waitFor({ timeout: 5000 })
  await page.locator('.meta a').click()
  await page.locator('.meta b', { hasText: recorded.sessionId }).waitFor({ timeout: 5000 })
  expect(await page.locator('.meta').textContent()).not.toContain('fork of')
})
