// Prompt command files in the real `tack` UI in a pseudo-terminal (85-skills-and-commands.md C3,
// docs/decisions/0275-prompt-commands.md): the `/` menu lists a workspace's command file with its
// description and argument hint, and running it sends the expansion while the transcript shows what
// was typed. Run `node scripts/build.ts` first (the binary runs the built copy when it is fresh).
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { closeAllTuis, openTui, submit } from './pty/tui-session.ts'

afterEach(closeAllTuis)

it('the / menu lists a command file with its hint; running it sends the expansion, shown as typed', async () => {
  const { term, server } = await openTui([{ kind: 'text', text: 'Reviewed it.' }], {
    prepare: async (workspace) => {
      await mkdir(join(workspace, '.claude', 'commands'), { recursive: true })
      await writeFile(
        join(workspace, '.claude', 'commands', 'review.md'),
        '---\ndescription: Review a file for bugs\nargument-hint: <file>\n---\nReview $0 for bugs, line by line.\n',
      )
    },
  })
  term.type('/revi')
  const menu = await term.waitFor('Review a file for bugs')
  expect(menu).toMatch(/review.*<file>|<file>.*review/)
  // The rest of the line typed after the menu showed, then sent.
  await submit(term, 'ew src/a.ts')
  const screen = await term.waitFor('Reviewed it.', 20_000)
  expect(screen).not.toContain('line by line')
  expect(screen).not.toContain('<command-name>')
  const sent = JSON.stringify(server.requests[0]?.body)
  expect(sent).toContain('<command-name>/review</command-name>')
  expect(sent).toContain('Review src/a.ts for bugs, line by line.')
})

it("your own command's !`cmd` asks like any bash call in ask mode, and its output is in the prompt", async () => {
  const { term, server } = await openTui([{ kind: 'text', text: 'Saw the branch.' }], {
    args: ['--permission-mode', 'ask'],
    // The sandbox's HOME is beside its workspace (helpers.ts sandbox).
    prepare: async (workspace) => {
      const commands = join(dirname(workspace), 'home', '.claude', 'commands')
      await mkdir(commands, { recursive: true })
      await writeFile(join(commands, 'where.md'), 'Here: !`echo on-main`\n')
    },
  })
  await submit(term, '/where')
  await term.waitFor('Allow bash echo on-main?', 20_000)
  term.type('1')
  await term.waitFor('Saw the branch.', 20_000)
  expect(JSON.stringify(server.requests[0]?.body)).toContain('Here: on-main')
})
