// `@path` completion in the prompt box through the real `tack` in a pseudo-terminal
// (85-skills-and-commands.md I1, docs/decisions/0280-file-mentions.md): in a git repository, `@` and a
// few letters offer the files git would see, ranked fuzzily — a `.gitignore`d file is never offered —
// Tab takes one, and the submitted prompt carries the file to the model as `read` shows it. A path with
// a space is offered quoted, after `@"` too; a folder is taken as a partial mention, to type on into.
import { execFileSync } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { closeAllTuis, openTui } from './pty/tui-session.ts'

afterEach(closeAllTuis)

async function repository(ws: string): Promise<void> {
  await mkdir(join(ws, 'src'), { recursive: true })
  await mkdir(join(ws, 'build'), { recursive: true })
  await mkdir(join(ws, 'my notes'), { recursive: true })
  await writeFile(join(ws, '.gitignore'), 'build/\n')
  await writeFile(join(ws, 'src', 'agent-loop.ts'), 'export const loopMarker = "kilo-lima-7"\n')
  await writeFile(join(ws, 'src', 'other.ts'), 'export {}\n')
  await writeFile(join(ws, 'build', 'agent-loop.js'), 'ignored build output\n')
  await writeFile(join(ws, 'my notes', 'a b.txt'), 'notes with spaces\n')
  execFileSync('git', ['init', '-q'], { cwd: ws })
}

describe('tack interactive: @path mentions', () => {
  it('@agloop offers the tracked file, not the ignored build; Tab takes it; the model gets it numbered', async () => {
    const { term, server } = await openTui([{ kind: 'text', text: 'Explained.' }], { prepare: repository })
    term.type('explain @agloop')
    await term.waitFor('@src/agent-loop.ts', 20_000)
    expect(term.screen()).not.toContain('build/agent-loop.js')
    term.press('tab')
    await term.waitFor(/^explain @src\/agent-loop\.ts\s*$/m)
    term.type('now')
    await term.waitFor('agent-loop.ts now')
    term.press('enter')
    await term.waitFor('Explained.', 20_000)
    const sent = JSON.stringify(server.requests[0]?.body)
    expect(sent).toContain('explain @src/agent-loop.ts now')
    expect(sent).toContain('1\\texport const loopMarker = \\"kilo-lima-7\\"')
    expect(sent).not.toContain('ignored build output')
  })

  it('a path with a space is offered quoted, also after @"', async () => {
    const { term, server } = await openTui([{ kind: 'text', text: 'Read.' }], { prepare: repository })
    term.type('see @"my no')
    await term.waitFor('@"my notes/a b.txt"', 20_000)
    // The folder ranks first (shallower); Tab takes it as a partial mention, inside the open quote.
    term.press('tab')
    await term.waitFor(/^see @"my notes\/\s*$/m)
    // pi-tui's editor opens the menu by itself only for a word without a space; Tab asks, and one item
    // left is taken at once.
    term.type('a')
    await term.waitFor(/^see @"my notes\/a\s*$/m)
    term.press('tab')
    await term.waitFor(/^see @"my notes\/a b\.txt"\s*$/m)
    term.press('enter')
    await term.waitFor('Read.', 20_000)
    expect(JSON.stringify(server.requests[0]?.body)).toContain('1\\tnotes with spaces')
  })
})
