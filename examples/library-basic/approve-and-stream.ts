// tack as a library (docs/library.md): opens a session in a folder, sends one prompt, prints each event
// of the session's log as it is appended, and answers the permission layer's questions through
// onApproval: a call writing inside the folder is allowed, anything else denied.
//
//   node approve-and-stream.ts <workspace> <model> [prompt]
//   (a model is `endpoint/model`, e.g. deepseek/deepseek-chat; `scripted//abs/script.json` plays a script)
import { resolve } from 'node:path'
import { type ApprovalRequest, isEvent, openSession, type TackEvent } from 'tack'

const [workspace, model, task = 'write a file named proof.txt saying hello'] = process.argv.slice(2)
if (!workspace || !model) {
  process.stderr.write('usage: node approve-and-stream.ts <workspace> <model> [prompt]\n')
  process.exit(2)
}
const folder = resolve(workspace)

function approve(request: ApprovalRequest) {
  const path = (request.input as { file_path?: unknown }).file_path
  const inside =
    request.tool === 'write' && typeof path === 'string' && resolve(folder, path).startsWith(`${folder}/`)
  process.stdout.write(
    `approval: ${request.tool} ${JSON.stringify(request.input)} -> ${inside ? 'allow' : 'deny'}\n`,
  )
  return inside
    ? ({ decision: 'allow' } as const)
    : ({ decision: 'deny', reason: 'only writes inside the workspace' } as const)
}

/** One line per event; the chunks of a streamed answer are left out (the whole message follows). */
function describe(event: TackEvent): string | undefined {
  if (isEvent(event, 'assistant/chunk')) return undefined
  if (isEvent(event, 'tool/call')) return `${event.seq} tool/call ${event.data.name} ${event.data.arguments}`
  if (isEvent(event, 'tool/result'))
    return `${event.seq} tool/result ${event.data.name}${event.data.isError ? ' (error)' : ''}`
  if (isEvent(event, 'approval/resolved'))
    return `${event.seq} approval/resolved ${event.data.decision} by ${event.data.by}`
  if (isEvent(event, 'turn/end')) return `${event.seq} turn/end ${event.data.reason.kind}`
  return `${event.seq} ${event.type}`
}

const session = await openSession({
  cwd: folder,
  model,
  permissionMode: 'ask', // every write asks, so onApproval decides
  onApproval: approve,
  metadata: { jobId: 'example' },
})
try {
  process.stdout.write(`session ${session.id} in ${session.cwd} with ${session.model}\n`)
  const turn = session.prompt(task)
  for await (const event of turn) {
    const line = describe(event)
    if (line) process.stdout.write(`${line}\n`)
  }
  const result = await turn.result
  process.stdout.write(`result: ${result.exitReason}: ${result.finalText}\n`)
  process.exitCode = result.exitReason === 'completed' ? 0 : 1
} finally {
  await session.close()
}
