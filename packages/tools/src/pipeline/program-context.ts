// A Code Mode sub-call's question shows the program it comes from (issue 26 item 1: "a Code Mode program
// shows its code, then each inner call that needs approval as its own prompt with its diff"). `run_code`
// itself is never asked (its access is `session`), so the program is shown where a person first meets
// it: under the change of each inner call that asks. Read from the log — the program's `tool/call` —
// so the question says what the model really sent. Sub-call ids are `<run_code call>:code:<n>`
// (code-mode/dispatch.ts).
import type { ResultIntent } from '../presentation.ts'
import type { ToolExecution } from '../types.ts'

const SUB_CALL = /^(.+):code:\d+$/

/** The program's lines as notes after a header, or none for a call that is not a Code Mode sub-call. */
export function programContext(exec: ToolExecution): ResultIntent[] {
  const parent = SUB_CALL.exec(exec.callId)?.[1]
  if (!parent || !exec.agent) return []
  const events = exec.agent.session.events()
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]
    if (e?.type !== 'tool/call') continue
    const data = e.data as { callId: string; name: string; arguments: string }
    if (data.callId !== parent) continue
    const code = codeOf(data.arguments)
    if (code === undefined) return []
    return [
      { kind: 'text', text: `It is a call of the Code Mode program ${data.name} (${parent}):` },
      ...code.split('\n').map((line): ResultIntent => ({ kind: 'text', text: `  ${line}` })),
    ]
  }
  return []
}

function codeOf(args: string): string | undefined {
  try {
    const code = (JSON.parse(args) as { code?: unknown }).code
    return typeof code === 'string' ? code.replace(/\s+$/, '') : undefined
  } catch {
    return undefined
  }
}
