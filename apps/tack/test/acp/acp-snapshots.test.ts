// 50-acp.md requirement 15: every scenario folder under ./scenarios runs the real `tack acp` with the
// scripted model and compares its normalised stdout with the golden; TACK_SNAPSHOT=refresh rewrites
// the goldens. 50-acp.md requirement 1 rides along: every stdout line is a JSON-RPC 2.0 message, and the
// process exits 0 when the client closes stdin.
import { existsSync, readdirSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'
import { runScenario } from './snapshot.ts'

const root = fileURLToPath(new URL('./scenarios', import.meta.url))
const scenarios = readdirSync(root).sort()

test.each(scenarios)('ACP scenario %s matches its golden (50-acp.md requirement 15)', async (name) => {
  const folder = join(root, name)
  const run = await runScenario(folder)
  for (const line of run.stdout) {
    const message = JSON.parse(line) as Record<string, unknown>
    expect(message.jsonrpc, line).toBe('2.0')
  }
  expect(
    run.exitCodes.every((code) => code === 0),
    run.stderr,
  ).toBe(true)
  const actual = `${run.stdout.join('\n')}\n`
  const golden = join(folder, 'expected.stdout.jsonl')
  if (process.env.TACK_SNAPSHOT === 'refresh') await writeFile(golden, actual)
  expect(actual).toBe(await readFile(golden, 'utf8'))
  // 50-acp.md requirement 7: a scenario may also pin what each model request offered (tools mode switches).
  const requests = join(folder, 'expected.requests.json')
  if (!existsSync(requests)) return
  if (process.env.TACK_SNAPSHOT === 'refresh')
    await writeFile(requests, `${JSON.stringify(run.requests, null, 2)}\n`)
  // Compared as data: the formatter may lay the file out its own way.
  expect(run.requests).toEqual(JSON.parse(await readFile(requests, 'utf8')))
})
