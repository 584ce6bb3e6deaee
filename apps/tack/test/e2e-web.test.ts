// web_fetch through the real binary (issue 12 item 2): loaded by default, refusing loopback unless the
// user's own config allows it — and a project config of an untrusted workspace cannot allow it.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { jsonLines, runTack, sandbox } from './helpers.ts'

const hits: string[] = []
const server = createServer((req, res) => {
  hits.push(req.url ?? '')
  res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><p>local page body</p></body></html>')
})
let base = ''
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise((resolve) => server.close(resolve)))

async function fetchRun(userConfig: string | undefined, projectConfig?: string) {
  const box = await sandbox()
  await mkdir(box.tackHome, { recursive: true })
  if (userConfig) await writeFile(join(box.tackHome, 'config.yml'), userConfig)
  if (projectConfig) {
    await mkdir(join(box.workspace, '.tack'), { recursive: true })
    await writeFile(join(box.workspace, '.tack', 'config.yml'), projectConfig)
  }
  const script = join(box.root, 'script.json')
  await writeFile(
    script,
    JSON.stringify([
      { kind: 'tool-calls', calls: [{ name: 'web_fetch', args: { url: `${base}/page` } }] },
      { kind: 'text', text: 'done' },
    ]),
  )
  const run = await runTack(['run', '--json', '--model', `scripted/${script}`, 'read the page'], {
    env: box.env,
    cwd: box.workspace,
  })
  const results = jsonLines(run.stdout).filter((l) => l.type === 'tool/result') as Array<{
    data: { isError: boolean; content: Array<{ text: string }> }
  }>
  return { run, result: results[0]?.data }
}

test('12.2 web_fetch refuses loopback by default and reads it when the user config allows it', async () => {
  const refused = await fetchRun(undefined)
  expect(refused.run.code).toBe(0)
  expect(refused.result?.isError).toBe(true)
  expect(refused.result?.content[0].text).toMatch(/not fetched: .*loopback.*plugins\.web\.allowLoopback/)
  expect(hits).toEqual([])

  const allowed = await fetchRun('plugins:\n  web:\n    allowLoopback: true\n')
  expect(allowed.run.code).toBe(0)
  expect(allowed.result?.isError).toBe(false)
  expect(allowed.result?.content[0].text).toContain('local page body')
  expect(hits).toEqual(['/page'])
}, 120_000)

test('12.2 an untrusted workspace config cannot allow loopback for web_fetch', async () => {
  hits.length = 0
  const { run, result } = await fetchRun(undefined, 'plugins:\n  web:\n    allowLoopback: true\n')
  expect(run.code).toBe(0)
  expect(result?.isError).toBe(true)
  expect(result?.content[0].text).toMatch(/loopback/)
  expect(hits).toEqual([])
}, 120_000)
