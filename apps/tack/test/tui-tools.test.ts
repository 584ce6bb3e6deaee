// Issue 16 acceptance (80-cli.md §5.1–§5.3): tool cards through the real `tack` in a pseudo-terminal —
// the coloured diff of an applied edit, a permission prompt answered "allow once" and "deny" with a
// reason the model then reads, and Esc killing a running bash call. Run `node scripts/build.ts` first.
import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, describe, expect, it } from 'vitest'
import { screenToSvg } from './pty/svg.ts'
import {
  askedToRun,
  bashCall,
  closeAllTuis,
  openTui,
  submit,
  submitWithoutQuestion,
} from './pty/tui-session.ts'

afterEach(closeAllTuis)

/** Whether a process is alive (signal 0 probes without signalling). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('tack interactive: tool cards', () => {
  it('shows an applied edit as a diff card with numbered, coloured lines', async () => {
    const { term } = await openTui(
      [
        // an edit needs a read of the file first (the fs tools' read-before-write rule)
        { kind: 'tool-calls', calls: [{ name: 'read', args: { file_path: 'src/greet.ts' } }] },
        {
          kind: 'tool-calls',
          calls: [
            {
              name: 'edit',
              args: { file_path: 'src/greet.ts', old_string: "'Hello '", new_string: "'Hi there, '" },
            },
          ],
        },
        { kind: 'text', text: 'Edited the greeting.' },
      ],
      {
        args: ['--permission-mode', 'workspace-write'],
        prepare: async (ws) => {
          await mkdir(join(ws, 'src'))
          await writeFile(
            join(ws, 'src', 'greet.ts'),
            "// greetings\nexport function greet(name: string) {\n  return 'Hello ' + name\n}\n",
          )
        },
      },
    )
    await submit(term, 'change the greeting')
    const screen = await term.waitFor('Edited the greeting.', 20_000)
    expect(screen).toMatch(/✓ edit src\/greet\.ts\s+done \d/)
    expect(screen).toMatch(/@@ -\d+,\d+ \+\d+,\d+ @@/)
    expect(screen).toMatch(/^\s*3 - {3}return 'Hello ' \+ name$/m)
    expect(screen).toMatch(/^\s*3 \+ {3}return 'Hi there, ' \+ name$/m)
    expect(screen).toMatch(/^\s*2 {3}export function greet/m)
    // removed lines red, added lines green: the renderer sees two different foreground colours
    const svg = screenToSvg(term.terminal)
    const fillOf = (text: string) => new RegExp(`fill="(#[0-9a-f]{6})"[^>]*>[^<]*${text}`).exec(svg)?.[1]
    const removed = fillOf("3 - {3}return 'Hello '")
    const added = fillOf("3 \\+ {3}return 'Hi there, '")
    expect(removed).toBeDefined()
    expect(added).toBeDefined()
    expect(removed).not.toBe(added)
  })

  it('asks before a bash call; "allow once" runs it', async () => {
    const { term, box, question } = await askedToRun(
      'echo ran > allowed.txt',
      [{ kind: 'text', text: 'It ran.' }],
      'make the file',
    )
    expect(question).toContain('Allow bash echo ran > allowed.txt?')
    expect(question).toMatch(/› 1\. Allow once\n\s+2\. Allow for this session\n\s+3\. Deny/)
    expect(question).toContain('waiting for approval')
    expect(existsSync(join(box.workspace, 'allowed.txt'))).toBe(false)
    term.press('enter')
    await term.waitFor('It ran.', 20_000)
    await term.waitForGone('Permission required')
    expect(await readFile(join(box.workspace, 'allowed.txt'), 'utf8')).toBe('ran\n')
    expect(term.screen()).toMatch(/✓ bash echo ran > allowed\.txt\s+done/)
  })

  it('asks before a bash call; "deny" with a reason tells the model the reason', async () => {
    const { term, box, server } = await openTui(
      [bashCall('rm -rf build'), { kind: 'text', text: 'Understood, I will not delete it.' }],
      { args: ['--permission-mode', 'ask'], prepare: (ws) => mkdir(join(ws, 'build')) },
    )
    await submit(term, 'clean up')
    await term.waitFor('Allow bash rm -rf build?', 20_000)
    term.type('3')
    await term.waitFor('Reason for the model (Enter to send, empty for none):')
    term.type('the build folder holds my release notes')
    await term.waitFor('the build folder holds my release notes')
    term.press('enter')
    const screen = await term.waitFor('Understood, I will not delete it.', 20_000)
    expect(screen).toMatch(/bash rm -rf build\s+denied/)
    expect(existsSync(join(box.workspace, 'build'))).toBe(true)
    // the second request carries the refusal with the user's words as the tool result
    const second = JSON.stringify(server.requests[1].body)
    expect(second).toContain('The user denied this tool call.')
    expect(second).toContain('The user said: the build folder holds my release notes')
  })

  it('"allow for this session" runs the same command in a later turn without asking', async () => {
    const { term, box } = await openTui(
      [
        bashCall('echo once >> log.txt'),
        { kind: 'text', text: 'Appended the first.' },
        bashCall('echo once >> log.txt'),
        { kind: 'text', text: 'Appended the second.' },
      ],
      { args: ['--permission-mode', 'ask'] },
    )
    await submit(term, 'append one')
    await term.waitFor('Allow bash echo once >> log.txt?', 20_000)
    term.type('2')
    await term.waitFor('Appended the first.', 20_000)
    await submitWithoutQuestion(term, 'append another', 'Appended the second.')
    expect(await readFile(join(box.workspace, 'log.txt'), 'utf8')).toBe('once\nonce\n')
  })

  it('shows the todo list above the prompt box while an item is unfinished', async () => {
    const todos = [
      { content: 'write the parser', status: 'completed' },
      { content: 'test the parser', status: 'in_progress' },
      { content: 'document it', status: 'pending' },
    ]
    const { term } = await openTui([
      { kind: 'tool-calls', calls: [{ name: 'todo_write', args: { todos } }] },
      { kind: 'text', text: 'Planned.' },
    ])
    await submit(term, 'plan the parser work')
    const screen = await term.waitFor('Planned.', 20_000)
    // the panel, then (maybe the last prompt's suggestion line, then) the prompt box's rule
    const panel = screen.slice(screen.lastIndexOf('Todos 1/3'))
    expect(panel).toMatch(
      /^Todos 1\/3\n\s+☑ write the parser\n\s+▶ test the parser\n\s+☐ document it\n(.*\n)?─+/,
    )
  })

  it('Esc interrupts a running bash call: the command is killed and the turn ends', async () => {
    const { term, box, server } = await openTui(
      [bashCall('echo $$ > sleeper.pid; exec sleep 120'), { kind: 'text', text: 'never reached' }],
      { args: ['--permission-mode', 'yolo'] },
    )
    await submit(term, 'wait a long time')
    await term.waitFor(/● bash echo \$\$ > sleeper\.pid; exec sleep 120\s+running/, 20_000)
    const pidFile = join(box.workspace, 'sleeper.pid')
    while (!existsSync(pidFile) || !(await readFile(pidFile, 'utf8')).trim()) await sleep(50)
    const pid = Number((await readFile(pidFile, 'utf8')).trim())
    expect(alive(pid)).toBe(true)
    term.press('esc')
    await term.waitFor('interrupted', 10_000)
    await term.waitForGone('Esc to interrupt')
    const deadline = Date.now() + 5000
    while (alive(pid) && Date.now() < deadline) await sleep(50)
    expect(alive(pid)).toBe(false)
    // the model was not asked again: the turn ended with the interrupt
    expect(server.requests).toHaveLength(1)
    // and the box takes the next prompt
    term.type('still here?')
    await term.waitFor('still here?')
  })
})
