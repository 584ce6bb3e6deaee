// The ACP form of the project MCP server approval (55-mcp.md M6, docs/decisions/0250-mcp-approval-prompt.md):
// after `session/new` or `session/load` has been answered (the client knows the session id by then), each
// server of the folder's `.mcp.json` waiting for approval is put to the client as one
// `session/request_permission` — a tool call titled `Start MCP server NAME from .mcp.json`, whose text
// says new or changed, what it runs or reaches, and its env/header names with values hidden. Options:
// approve, approve all waiting (with more than one), skip. Approve records the approval as
// `tack mcp approve` does and starts the server for the folder's sessions; its tools join as a late
// server's do. Skip, any option id the client made up, `cancelled`, and an error answer (a client
// that does not take the request) start nothing and record nothing; cancelled and an error end the
// round. What is approved, recorded and started is the embedder's (`ProjectMcpApprovals`): this package
// only asks.
import type { PermissionOption, RequestPermissionRequest } from '@agentclientprotocol/sdk'
import type { AcpSession } from './acp-session.ts'

/** A project server waiting for approval, as the question shows it (values of env/headers never). */
export interface ProjectServerQuestion {
  readonly name: string
  readonly state: 'new' | 'changed'
  /** `runs CMD ARGS…` or `reaches URL`, as the file writes it. */
  readonly action: string
  /** `env TOKEN=<hidden>`, `headers X-Trace=${OPENAI_API_KEY}` (references as written), a WARNING line … */
  readonly secrets: readonly string[]
}

/** The embedder's side: which servers wait, and what approving or skipping one does. */
export interface ProjectMcpApprovals {
  /** The servers to ask about now; each is offered once per boot (an answer or a skip removes it). */
  waiting(): readonly ProjectServerQuestion[]
  /** Records the approvals of `names` (as now defined) and starts them for the folder's sessions. */
  approve(names: readonly string[]): Promise<void>
  /** `names` were skipped, cancelled or not answered: not asked again in this boot. */
  skip(names: readonly string[]): void
}

const APPROVE = 'approve'
const APPROVE_ALL = 'approve-all'
const SKIP = 'skip'

function options(name: string, waiting: number): PermissionOption[] {
  return [
    { optionId: APPROVE, name: `Approve ${name}`, kind: 'allow_always' },
    ...(waiting > 1
      ? [
          {
            optionId: APPROVE_ALL,
            name: `Approve all ${waiting} servers of this project`,
            kind: 'allow_always' as const,
          },
        ]
      : []),
    { optionId: SKIP, name: 'Skip for now', kind: 'reject_once' },
  ]
}

function request(sessionId: string, q: ProjectServerQuestion, waiting: number): RequestPermissionRequest {
  const state = q.state === 'changed' ? 'changed since it was approved' : 'new'
  const text = [`MCP server ${q.name} in .mcp.json (${state}): ${q.action}`, ...q.secrets].join('\n')
  return {
    sessionId,
    toolCall: {
      toolCallId: `mcp-approval-${q.name}`,
      title: `Start MCP server ${q.name} from .mcp.json`,
      kind: 'execute',
      status: 'pending',
      content: [{ type: 'content', content: { type: 'text', text } }],
      rawInput: { server: q.name, state: q.state, action: q.action },
    },
    options: options(q.name, waiting),
  }
}

/** Asks the client about every waiting server, in turn; one round at a time per approvals object. */
export async function askProjectServers(
  session: AcpSession,
  approvals: ProjectMcpApprovals,
  warn: (line: string) => void,
): Promise<void> {
  const rounds = ROUNDS.get(approvals) ?? Promise.resolve()
  const round = rounds.then(() => askRound(session, approvals, warn))
  ROUNDS.set(
    approvals,
    round.catch(() => {}),
  )
  await round
}

/** A second session in the folder waits for the first one's round, then sees what is still waiting. */
const ROUNDS = new WeakMap<ProjectMcpApprovals, Promise<void>>()

async function askRound(
  session: AcpSession,
  approvals: ProjectMcpApprovals,
  warn: (line: string) => void,
): Promise<void> {
  const waiting = approvals.waiting()
  for (const [index, q] of waiting.entries()) {
    const rest = waiting.slice(index).map((w) => w.name)
    let outcome: Awaited<ReturnType<AcpSession['ask']>>['outcome']
    try {
      outcome = (await session.ask(request(session.id, q, rest.length))).outcome
    } catch (error) {
      approvals.skip(rest)
      warn(
        `tack acp: the client did not answer the approval of MCP server ${q.name} (${error instanceof Error ? error.message : String(error)}); the project's waiting servers do not start (tack mcp approve NAME)`,
      )
      return
    }
    if (outcome.outcome === 'cancelled') {
      approvals.skip(rest)
      return
    }
    if (outcome.optionId === APPROVE_ALL) return approvals.approve(rest)
    if (outcome.optionId === APPROVE) await approvals.approve([q.name])
    else approvals.skip([q.name])
  }
}
