// Every `tack run` loads this plugin, so the HTML libraries (about 1 s to import on a loaded machine)
// must wait for the first page or search, not be paid at start-up.
import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'

const PROBE = `
import { registerHooks } from 'node:module'
const seen = []
registerHooks({ resolve(specifier, context, next) { seen.push(specifier); return next(specifier, context) } })
const m = await import('@tack/tool-web')
if (!m.WebToolsPlugin) throw new Error('no plugin')
console.log(JSON.stringify(seen.filter((s) => /linkedom|readability|turndown/.test(s))))
`

describe('start-up cost', () => {
  it('importing @tack/tool-web loads none of linkedom, Readability or Turndown', () => {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', PROBE], {
      cwd: import.meta.dirname,
      encoding: 'utf8',
    })
    expect(JSON.parse(out.trim().split('\n').at(-1) ?? 'null')).toEqual([])
  }, 60_000)
})
