// A session that never ran a turn (an ACP `session/new` never prompted, a fork at 0) holds nothing to go
// back to: `tack run -c` continues the newest session of the workspace that has a turn, through the real
// binary and the real ACP SDK client (docs/decisions/0020-continue-and-resume.md).
import { methods } from '@agentclientprotocol/sdk'
import { expect, test } from 'vitest'
import { withAcp } from './acp/client.ts'
import { jsonLines, runTack, sandbox, scriptedModel, textAnswers } from './helpers.ts'

test('tack run -c skips sessions with no turn (an unprompted ACP session/new, a fork at 0)', async () => {
  const box = await sandbox()
  const model = await scriptedModel(box.root, textAnswers('done', 'more done'))
  const run = (args: string[]) =>
    runTack(['run', '--json', '--model', model, ...args], { env: box.env, cwd: box.workspace })
  const first = await run(['the work'])
  expect(first.code).toBe(0)
  const worked = jsonLines(first.stdout)[0].sessionId as string

  await withAcp({ box, script: textAnswers('unused') }, async (acp) => {
    await acp.connection.agent.request(methods.agent.session.new, { cwd: box.workspace, mcpServers: [] })
  })
  const fork = await runTack(['sessions', 'fork', worked, '--at', '0'], { env: box.env, cwd: box.workspace })
  expect(fork.code).toBe(0)
  const list = await runTack(['sessions', 'list', '--json'], { env: box.env, cwd: box.workspace })
  const turns = (JSON.parse(list.stdout) as Array<{ turns: number }>).map((s) => s.turns).sort()
  expect(turns).toEqual([0, 0, 1]) // both empty sessions are newer than the one worked in

  const again = await run(['-c', 'more'])
  expect(jsonLines(again.stdout)[0]).toMatchObject({ sessionId: worked, resumed: true })
  expect({ code: again.code, stderr: again.stderr }).toEqual({ code: 0, stderr: '' })
})
