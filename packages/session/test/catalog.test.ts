import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { CATALOG_PATH, CatalogError, generate } from '../../../scripts/gen-session-events.ts'
import { SURFACE_EVENT_TYPES } from '../src/index.ts'

const run = promisify(execFile)
const repoRoot = resolve(import.meta.dirname, '../../..')
const script = join(repoRoot, 'scripts/gen-session-events.ts')

const CORE = `
export type SurfaceEventType = 'user/message' | 'assistant/message'
export interface SessionEventMap {
  /** A prompt. */
  'user/message': { content: string }
  /** An answer, over
   *  two lines. */
  'assistant/message': {
    text: string
    usage?: { input: number }
  }
  /** A turn begins. */
  'turn/start': { turn: number }
}
`
const MERGE = `
import '@tack/session'
declare module '@tack/session' {
  interface SessionEventMap {
    /** A hook ran | with a pipe. */
    'hook/result': { ok: boolean; kind: 'a' | 'b' }
  }
}
`

describe('SL-30 session event catalog', () => {
  let root: string
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'tack-catalog-'))
  })
  afterEach(async () => {
    await rm(root, { recursive: true, force: true })
  })

  async function write(path: string, content: string): Promise<void> {
    await mkdir(dirname(join(root, path)), { recursive: true })
    await writeFile(join(root, path), content)
  }
  async function fixture(core = CORE, merge = MERGE): Promise<void> {
    await write('package.json', '{"workspaces": ["packages/*"]}')
    await write('packages/session/package.json', '{"name": "@tack/session"}')
    await write('packages/session/src/events.ts', core)
    await write('packages/hooks/package.json', '{"name": "@tack/hooks"}')
    await write('packages/hooks/src/events.ts', merge)
  }
  async function problems(): Promise<readonly string[]> {
    try {
      await generate({ root })
    } catch (error) {
      expect(error).toBeInstanceOf(CatalogError)
      return (error as CatalogError).problems
    }
    throw new Error('expected a CatalogError')
  }

  test('SL-30 one row per type: one-line payload, surface/log badge, doc comment, declaring package', async () => {
    await fixture()
    const [out] = await generate({ root })
    expect(out.path).toBe(CATALOG_PATH)
    const rows = out.content.split('\n').filter((l) => l.startsWith('| `'))
    expect(rows).toEqual([
      '| `user/message` | surface | `{ content: string }` | A prompt. | `@tack/session` |',
      '| `assistant/message` | surface | `{ text: string; usage?: { input: number } }` | An answer, over two lines. | `@tack/session` |',
      '| `turn/start` | log | `{ turn: number }` | A turn begins. | `@tack/session` |',
      "| `hook/result` | log | `{ ok: boolean; kind: 'a' \\| 'b' }` | A hook ran \\| with a pipe. | `@tack/hooks` |",
    ])
  })

  test('SL-30 a member without a doc comment fails, naming the file and line', async () => {
    await fixture(CORE, MERGE.replace('/** A hook ran | with a pipe. */', '// not a doc comment'))
    expect(await problems()).toEqual([
      "packages/hooks/src/events.ts:6: event type 'hook/result' has no doc comment",
    ])
  })

  test('SL-30 an @mode tag fails: log events do not dispatch on the bus', async () => {
    await fixture(CORE, MERGE.replace('/** A hook ran | with a pipe. */', '/** A hook ran. @mode emit */'))
    expect((await problems())[0]).toMatch(/hook\/result' has an @mode tag/)
  })

  test('SL-30 a duplicate declaration fails, naming both places', async () => {
    await fixture(CORE, MERGE.replace("'hook/result'", "'turn/start'"))
    expect(await problems()).toEqual([
      "packages/hooks/src/events.ts:6: duplicate event type 'turn/start' (first declared at packages/session/src/events.ts:13)",
    ])
  })

  test('SL-30 a SurfaceEventType member missing from the map fails', async () => {
    await fixture(
      CORE.replace(
        "'user/message' | 'assistant/message'",
        "'user/message' | 'assistant/message' | 'tool/result'",
      ),
    )
    expect(await problems()).toEqual([
      "SurfaceEventType member 'tool/result' is missing from SessionEventMap",
    ])
  })

  test('SL-30 a SessionEventMap outside @tack/session and its module merges is not catalogued', async () => {
    await fixture()
    await write('packages/other/package.json', '{"name": "other"}')
    await write('packages/other/src/x.ts', 'interface SessionEventMap {\n  undocumented: number\n}\n')
    const [out] = await generate({ root })
    expect(out.content).not.toContain('undocumented')
  })

  test('SL-30 --check passes when fresh and fails after a doc comment is edited without regenerating', async () => {
    await fixture()
    await mkdir(join(root, 'docs'))
    await run(process.execPath, [script, '--root', root])
    await run(process.execPath, [script, '--root', root, '--check'])
    await write('packages/session/src/events.ts', CORE.replace('A turn begins.', 'A turn starts.'))
    const failed = await run(process.execPath, [script, '--root', root, '--check']).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    )
    expect(failed?.code).toBe(1)
    expect(failed?.stderr).toContain(`stale: ${CATALOG_PATH}`)
    expect(await readFile(join(root, CATALOG_PATH), 'utf8')).toContain('A turn begins.')
  })

  test('SL-30 --check reports rule violations with exit code 1', async () => {
    await fixture(CORE, MERGE.replace('/** A hook ran | with a pipe. */', ''))
    const failed = await run(process.execPath, [script, '--root', root, '--check']).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    )
    expect(failed?.code).toBe(1)
    expect(failed?.stderr).toContain("event type 'hook/result' has no doc comment")
  })

  // Freshness of the committed file is `npm run docs:check`'s job (run by `npm test`), so this test
  // does not turn red while another package is mid-way through changing its declarations.
  test('SL-30 the real workspace generates, listing every core type with the right badge', async () => {
    const [out] = await generate()
    for (const type of SURFACE_EVENT_TYPES) expect(out.content).toContain(`| \`${type}\` | surface |`)
    for (const type of ['turn/start', 'request/header', 'request/header-delta', 'prompt/blocked']) {
      expect(out.content).toContain(`| \`${type}\` | log |`)
    }
  })
})
