// Prompt command files over ACP (85-skills-and-commands.md C3, docs/decisions/0275-prompt-commands.md):
// a real `tack acp` advertises the workspace's command files in `available_commands_update`, their
// `argument-hint` as `input.hint`, and a prompt `/review src/a.ts` sends the expansion to the model.
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { sandbox } from '../helpers.ts'
import { scriptPath, until, updatesOf, withAcp } from './client.ts'
import { newSession, prompt } from './mcp-sessions.ts'

test('command files are available commands with their hints, and running one sends the expansion', async () => {
  const box = await sandbox()
  await mkdir(join(box.workspace, '.claude', 'commands', 'frontend'), { recursive: true })
  await writeFile(
    join(box.workspace, '.claude', 'commands', 'review.md'),
    '---\ndescription: Review a file for bugs\nargument-hint: <file>\n---\nReview $0 for bugs.\n',
  )
  await writeFile(
    join(box.workspace, '.claude', 'commands', 'frontend', 'component.md'),
    'Make $ARGUMENTS.\n',
  )
  await withAcp({ box, script: [{ kind: 'text', text: 'reviewed' }] }, async (acp) => {
    const sessionId = await newSession(acp, [])
    await until(() => updatesOf(acp, 'available_commands_update', sessionId).length > 0, 'the commands')
    const { availableCommands } = updatesOf(acp, 'available_commands_update', sessionId)[0] as {
      availableCommands: Array<{ name: string; description: string; input?: { hint: string } }>
    }
    expect(availableCommands).toContainEqual({
      name: 'review',
      description: 'Review a file for bugs',
      input: { hint: '<file>' },
    })
    expect(availableCommands).toContainEqual({ name: 'frontend:component', description: 'Make $ARGUMENTS.' })
    // The built-ins are there too, once each.
    expect(availableCommands.filter((c) => c.name === 'model')).toHaveLength(1)
    expect((await prompt(acp, sessionId, '/review src/a.ts')).stopReason).toBe('end_turn')
    const requests = (await readFile(`${scriptPath(acp.box)}.requests.jsonl`, 'utf8')).trim().split('\n')
    expect(requests).toHaveLength(1)
    const sent = requests[0] as string
    expect(sent).toContain('<command-name>/review</command-name>')
    expect(sent).toContain('<command-args>src/a.ts</command-args>')
    expect(sent).toContain('Review src/a.ts for bugs.')
    expect(sent).not.toContain('argument-hint')
  })
})

test("a command's model: answers its turn over the session's switched model; the next prompt is back on the session's", async () => {
  const box = await sandbox()
  const other = join(box.root, 'other.json')
  const switched = join(box.root, 'switched.json')
  await writeFile(other, JSON.stringify([{ kind: 'text', text: 'from the command model' }]))
  await writeFile(switched, JSON.stringify([{ kind: 'text', text: 'from the switched model' }]))
  // The person's own command: a workspace's may not choose a scripted model unless it is trusted (0275).
  await mkdir(join(box.home, '.claude', 'commands'), { recursive: true })
  await writeFile(
    join(box.home, '.claude', 'commands', 'quick.md'),
    `---\nmodel: scripted/${other}\n---\nSay hi.\n`,
  )
  await withAcp({ box, script: [] }, async (acp) => {
    const sessionId = await newSession(acp, [])
    // The session's model option follows /model (ACP's own listener on agent/request then names it).
    expect((await prompt(acp, sessionId, `/model scripted/${switched}`)).stopReason).toBe('end_turn')
    expect((await prompt(acp, sessionId, '/quick')).stopReason).toBe('end_turn')
    expect((await prompt(acp, sessionId, 'and now')).stopReason).toBe('end_turn')
    const lines = async (file: string) =>
      (await readFile(`${file}.requests.jsonl`, 'utf8')).trim().split('\n')
    const byCommand = await lines(other)
    expect(byCommand).toHaveLength(1)
    expect(byCommand[0]).toContain('Say hi.')
    const bySession = await lines(switched)
    expect(bySession).toHaveLength(1)
    expect(bySession[0]).toContain('and now')
  })
})
