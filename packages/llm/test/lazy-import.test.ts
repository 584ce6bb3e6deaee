// Decision 5: providers are imported lazily. A child process records every module it loads:
// importing @tack/llm (and its testing entry) loads no `@ai-sdk/*` package; the first request for
// a `local/*` model loads the OpenAI-compatible package and nothing for the other protocols.
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { expect, test } from 'vitest'

test('decision 5: importing @tack/llm loads no @ai-sdk module; a request loads only its own provider', () => {
  const fixture = join(import.meta.dirname, 'fixtures', 'loaded-modules.ts')
  const child = spawnSync(process.execPath, [fixture], { encoding: 'utf8' })
  expect(child.stderr).toBe('')
  const report = JSON.parse(child.stdout) as {
    afterImport: string[]
    afterRequest: string[]
    codecs: string[]
    sawLlm: boolean
  }
  // The recorder saw our own modules load, so an empty list is a real finding.
  expect(report.sawLlm).toBe(true)
  expect(report.afterImport).toEqual([])
  expect(report.afterRequest).toContain('openai-compatible')
  expect(report.afterRequest).not.toContain('anthropic')
  expect(report.afterRequest).not.toContain('openai')
  expect(report.afterRequest).not.toContain('deepseek')
  expect(report.codecs).toEqual([])
}, 30_000)
